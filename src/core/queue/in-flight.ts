import { Credit } from './credit.js';

/**
 * A {@link Credit} that counts every value that went out as still held downstream until
 * {@link InFlight.release}d: the queue's producer is paused by what waits *plus* what is in
 * flight. Its credit is unlimited unless it is given some: then a value goes out only while credit
 * is left, as with `Credit`. The kernel's host channel uses both, in one outlet — a chunk moves to
 * the scheduler against the extension's pulls and occupies its slot until the extension got it
 * (docs/protocol.md). One outlet, not a `Credit` beside an `InFlight`: each chunk then asks one
 * outlet whether it may go, not two through a third (docs/performance.md, "Fewer steps per chunk").
 *
 * @example
 * ```ts
 * const outlet = new InFlight(0); // no credit yet: nothing goes out before a pull
 * const channel = new DemandQueue<JsonValue>({ highWater: 16, deliver, finish }, outlet);
 * outlet.request(8); // the extension pulled 8
 * scheduler.enqueue(…, () => outlet.release(1)); // delivered: the slot is free again
 * ```
 */
export class InFlight extends Credit {
  #held = 0;

  /** `credit`: how many values may go out before `request` adds more (default: no limit). */
  constructor(credit = Number.POSITIVE_INFINITY) {
    super(credit);
  }

  /** Values out and not yet released. */
  override get held(): number {
    return this.#held;
  }

  /** Counts `count` more values as held downstream (values handed on some other way). */
  hold(count = 1): void {
    this.#held += count;
    this.wake();
  }

  /**
   * `count` values reached their consumer: they no longer count. `wake: false` tells the queue
   * nothing, for a caller that knows the change cannot matter to it (its valve stays paused).
   */
  release(count = 1, wake = true): void {
    this.#held = Math.max(0, this.#held - count);
    if (wake) this.wake();
  }

  override sent(): void {
    super.sent();
    this.#held += 1;
  }
}
