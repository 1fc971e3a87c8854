import type { OutletListener, QueueOutlet } from './queue-outlet.js';

/**
 * A {@link QueueOutlet} that counts every value that went out as still held downstream until
 * {@link InFlight.release}d: the queue's producer is paused by what waits *plus* what is in
 * flight. It may also be given credit, as {@link Credit} is: then a value goes out only while
 * credit is left, and each one spends one. The kernel's host channel uses both, in one outlet —
 * a chunk moves to the scheduler against the extension's pulls and occupies its slot until the
 * extension got it (docs/protocol.md). One outlet, not a `Credit` beside an `InFlight`: each
 * chunk then asks one outlet whether it may go, not two through a third (docs/benchmarks.md,
 * "Fewer steps per chunk, and where a first run's time goes").
 *
 * @example
 * ```ts
 * const outlet = new InFlight(0); // no credit yet: nothing goes out before a pull
 * const channel = new DemandQueue<JsonValue>({ highWater: 16, deliver, finish }, outlet);
 * outlet.request(8); // the extension pulled 8
 * scheduler.enqueue(…, () => outlet.release(1)); // delivered: the slot is free again
 * ```
 */
export class InFlight implements QueueOutlet {
  #held = 0;
  #credit: number;
  #queue: OutletListener | undefined;
  readonly holdsProducer = false;

  /** `credit`: how many values may go out before `request` adds more (default: no limit). */
  constructor(credit = Number.POSITIVE_INFINITY) {
    this.#credit = credit;
  }

  /** Values out and not yet released. */
  get held(): number {
    return this.#held;
  }

  /** The credit left (`Infinity` without a limit). */
  get credit(): number {
    return this.#credit;
  }

  get open(): boolean {
    return this.#credit > 0;
  }

  /** Adds `count` to the credit (`Infinity`: no limit from now on). */
  request(count: number): void {
    this.#credit += count;
    this.#queue?.drain();
  }

  /** Counts `count` more values as held downstream (values handed on some other way). */
  hold(count = 1): void {
    this.#held += count;
    this.#queue?.drain();
  }

  /**
   * `count` values reached their consumer: they no longer count. `wake: false` tells the queue
   * nothing, for a caller that knows the change cannot matter to it (its valve stays paused).
   */
  release(count = 1, wake = true): void {
    this.#held = Math.max(0, this.#held - count);
    if (wake) this.#queue?.drain();
  }

  sent(): void {
    this.#credit -= 1;
    this.#held += 1;
  }

  watch(queue: OutletListener): () => void {
    this.#queue = queue;
    return () => {
      this.#queue = undefined;
    };
  }
}
