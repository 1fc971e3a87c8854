import type { Subscription } from 'rxjs';
import type { MacrotaskScheduler } from '../scheduler/macrotask-scheduler.js';

/**
 * The stall timer of one stream (seed 002, "Stall Detection"): `start()` arms it if it is not
 * armed (a no-op when `ms` is 0, which disables it), `stop()` clears it; on expiry it calls
 * `onStall` once. It runs on the scheduler's clock, so it is virtual in tests. (Internal to the host.)
 *
 * @example
 * ```ts
 * const stall = new StallTimer(scheduler, 30_000, () => stream.cancel('stalled'));
 * stall.start(); // the channel is full
 * stall.stop(); // a slot freed
 * ```
 */
export class StallTimer {
  readonly #scheduler: MacrotaskScheduler<unknown>;
  readonly #ms: number;
  readonly #onStall: () => void;
  #timer: Subscription | undefined;

  constructor(scheduler: MacrotaskScheduler<unknown>, ms: number, onStall: () => void) {
    this.#scheduler = scheduler;
    this.#ms = ms;
    this.#onStall = onStall;
  }

  /** Arms the timer unless it is armed already or disabled. */
  start(): void {
    if (this.#ms <= 0 || this.#timer !== undefined) return;
    this.#timer = this.#scheduler.setTimer(this.#ms, () => {
      this.#timer = undefined;
      this.#onStall();
    });
  }

  /** Clears the timer. */
  stop(): void {
    this.#timer?.unsubscribe();
    this.#timer = undefined;
  }
}
