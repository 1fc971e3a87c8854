import type { Demand } from '../demand.js';
import type { OutletListener, QueueOutlet } from './queue-outlet.js';

/**
 * A {@link QueueOutlet} open while a downstream {@link Demand} flows: a queue's values go out only
 * when its consumer wants them.
 *
 * With `holdProducer`, the queue's producer is paused as soon as the demand pauses, even with
 * nothing waiting — what a child's pipe needs: the child then blocks on its full pipe rather than
 * one more read landing in the queue. Without it, the producer is paused only once the queue
 * fills to its high-water mark.
 *
 * @example
 * ```ts
 * const lines = new DemandQueue<ExecEvent>({ highWater: 1, lowWater: 0, deliver, finish }, new DemandGate(demand, true));
 * ```
 */
export class DemandGate implements QueueOutlet {
  readonly #demand: Demand;
  readonly #holdProducer: boolean;
  readonly held = 0;

  constructor(demand: Demand, holdProducer = false) {
    this.#demand = demand;
    this.#holdProducer = holdProducer;
  }

  get open(): boolean {
    return !this.#demand.paused;
  }

  get holdsProducer(): boolean {
    return this.#holdProducer && this.#demand.paused;
  }

  sent(): void {}

  watch(queue: OutletListener): () => void {
    return this.#demand.onChange(() => queue.drain());
  }
}
