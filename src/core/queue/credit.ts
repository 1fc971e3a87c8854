import type { OutletListener, QueueOutlet } from './queue-outlet.js';

/**
 * A {@link QueueOutlet} that lets out as many values as were asked for: each value spends one
 * unit, {@link Credit.request} adds more — a pending `next()` is one, an extension's `pull(n)` is
 * `n`.
 *
 * @example
 * ```ts
 * const credit = new Credit();
 * const queue = new DemandQueue<string>({ highWater: 16, deliver, finish }, credit);
 * credit.request(2); // up to two values go out now, or as soon as they arrive
 * ```
 */
export class Credit implements QueueOutlet {
  #count: number;
  #queue: OutletListener | undefined;
  readonly holdsProducer = false;

  /** Starts with `initial` units (default 0: nothing goes out before it is asked for). */
  constructor(initial = 0) {
    this.#count = initial;
  }

  /** Units left. */
  get count(): number {
    return this.#count;
  }

  /** None: a value that went out is its consumer's ({@link InFlight} holds them until released). */
  get held(): number {
    return 0;
  }

  get open(): boolean {
    return this.#count > 0;
  }

  /** Allows `count` more values out. */
  request(count: number): void {
    this.#count += count;
    this.wake();
  }

  sent(): void {
    this.#count -= 1;
  }

  watch(queue: OutletListener): () => void {
    this.#queue = queue;
    return () => {
      this.#queue = undefined;
    };
  }

  /** Tells the queue that watches this outlet (if any) that it changed. */
  protected wake(): void {
    this.#queue?.drain();
  }
}
