import type { Subscription } from 'rxjs';
import type { MacrotaskScheduler } from '../scheduler/macrotask-scheduler.js';

/**
 * The stall timer of one stream (docs/protocol.md, "Stall"): `start()` starts the stall clock
 * unless it runs (a no-op when `ms` is 0, which disables it), `stop()` stops it; after `ms` of
 * uninterrupted running it calls `onStall` once. `dispose()` frees the timer for good.
 *
 * A stream that sits at capacity starts and stops the clock once per chunk, so `start()` and
 * `stop()` only record state: one scheduler timer at a time checks it on expiry — a clock that
 * was stopped lets the timer lapse, one that was restarted since has the timer scheduled again for
 * the remainder (as the `stallTimeout` operator does). The stall still fires exactly `ms` after the
 * last `start()`. It runs on the scheduler's clock, so it is virtual in tests. (Internal to the host.)
 *
 * @example
 * ```ts
 * const stall = new StallTimer(scheduler, 30_000, () => stream.cancel('stalled'));
 * stall.start(); // the channel is full
 * stall.stop(); // a slot freed
 * stall.dispose(); // the stream is closed
 * ```
 */
export class StallTimer {
  readonly #scheduler: MacrotaskScheduler<unknown>;
  readonly #ms: number;
  readonly #onStall: () => void;
  #timer: Subscription | undefined;
  // Flags are tested with `=== true` (docs/performance.md, "Flags tested against `true`").
  #running = false;
  #since = 0;

  constructor(scheduler: MacrotaskScheduler<unknown>, ms: number, onStall: () => void) {
    this.#scheduler = scheduler;
    this.#ms = ms;
    this.#onStall = onStall;
  }

  /** Starts the stall clock unless it runs already or is disabled. */
  start(): void {
    if (this.#ms <= 0 || this.#running === true) return;
    this.#running = true;
    this.#since = this.#scheduler.now();
    // A timer still pending from an earlier start expires early and schedules itself again.
    if (this.#timer === undefined) this.#schedule(this.#ms);
  }

  /** A running clock starts over from now (a slot freed, the stream still at capacity). */
  restart(): void {
    if (this.#running === true) this.#since = this.#scheduler.now();
  }

  /** Stops the stall clock (a pending timer lapses when it expires). */
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
    this.#timer = this.#scheduler.setTimer(delayMs, this.#expire);
  }

  readonly #expire = (): void => {
    this.#timer = undefined;
    if (this.#running !== true) return;
    const elapsed = this.#scheduler.now() - this.#since;
    if (elapsed < this.#ms) {
      this.#schedule(this.#ms - elapsed);
      return;
    }
    this.#running = false;
    this.#onStall();
  };
}
