import type { SchedulerLike, Subscription } from 'rxjs';

/** What a {@link StallClock} runs on: a clock reading and one-shot timers (the kernel's macrotask scheduler is one). */
export interface StallClockTimers {
  now(): number;
  /** Runs `callback` after `delayMs`; unsubscribe to cancel. */
  setTimer(delayMs: number, callback: () => void): Subscription;
}

/**
 * The one stall clock (docs/protocol.md, "Stall"), under `stallTimeout`, the kernel host's streams
 * and the SSE client: after `ms` of uninterrupted running (0 disables it) it calls `onStall` once.
 * A stream at capacity starts and stops it per chunk, so `start`, `restart` and `stop` only record
 * state, and one timer checks it on expiry (rescheduled for the remainder after a restart).
 */
export class StallClock {
  readonly #timers: StallClockTimers;
  readonly #ms: number;
  readonly #onStall: () => void;
  #timer: Subscription | undefined;
  // Flags are tested with `=== true` (docs/performance.md, "Flags tested against `true`").
  #running = false;
  #since = 0;

  constructor(timers: StallClockTimers, ms: number, onStall: () => void) {
    this.#timers = timers;
    this.#ms = ms;
    this.#onStall = onStall;
  }

  /** A stall clock on an RxJS scheduler's time and timers. */
  static on(scheduler: SchedulerLike, ms: number, onStall: () => void): StallClock {
    const timers: StallClockTimers = {
      now: () => scheduler.now(),
      setTimer: (delayMs, callback) => scheduler.schedule(callback, delayMs),
    };
    return new StallClock(timers, ms, onStall);
  }

  /** The time the clock last (re)started: the start of the stall `onStall` reports. */
  get since(): number {
    return this.#since;
  }

  /** Starts the clock unless it runs or is disabled. */
  start(): void {
    if (this.#ms <= 0 || this.#running === true) return;
    this.#running = true;
    this.#since = this.#timers.now();
    // A timer still pending from an earlier start expires early and schedules itself again.
    if (this.#timer === undefined) this.#schedule(this.#ms);
  }

  /** A running clock starts over from now (progress while still blocked). */
  restart(): void {
    if (this.#running === true) this.#since = this.#timers.now();
  }

  /** Stops the clock (a pending timer lapses). */
  stop(): void {
    this.#running = false;
  }

  /** Stops the clock and cancels the pending timer. */
  dispose(): void {
    this.#running = false;
    this.#timer?.unsubscribe();
    this.#timer = undefined;
  }

  #schedule(delayMs: number): void {
    this.#timer = this.#timers.setTimer(delayMs, this.#expire);
  }

  readonly #expire = (): void => {
    this.#timer = undefined;
    if (this.#running !== true) return;
    const elapsed = this.#timers.now() - this.#since;
    if (elapsed < this.#ms) {
      this.#schedule(this.#ms - elapsed);
      return;
    }
    this.#running = false;
    this.#onStall();
  };
}
