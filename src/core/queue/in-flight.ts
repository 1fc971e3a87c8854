import type { OutletListener, QueueOutlet } from './queue-outlet.js';

/**
 * A {@link QueueOutlet} that counts every value that went out as still held downstream until
 * {@link InFlight.release}d: the queue's producer is paused by what waits *plus* what is in
 * flight. The kernel's host channel uses it — a chunk handed to the scheduler occupies its slot
 * until the extension got it (docs/protocol.md).
 *
 * @example
 * ```ts
 * const inFlight = new InFlight();
 * const channel = new DemandQueue<JsonValue>({ highWater: 16, deliver, finish }, credit, inFlight);
 * scheduler.enqueue(…, () => inFlight.release(1)); // delivered: the slot is free again
 * ```
 */
export class InFlight implements QueueOutlet {
  #held = 0;
  #queue: OutletListener | undefined;
  readonly open = true;
  readonly holdsProducer = false;

  /** Values out and not yet released. */
  get held(): number {
    return this.#held;
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
    this.#held += 1;
  }

  watch(queue: OutletListener): () => void {
    this.#queue = queue;
    return () => {
      this.#queue = undefined;
    };
  }
}
