import type { Subscriber } from 'rxjs';
import type { Demand } from '../../core/demand.js';
import { DemandQueue, type QueueEnding } from '../../core/queue/demand-queue.js';
import { DemandGate } from '../../core/queue/queue-outlet.js';
import { type DirectSink, directSinkOf } from '../../core/subscriber-chain.js';
import type { ExecEvent } from './exec-types.js';

/** Where a run's events go, and the valve its pipes follow (read while it flows). */
export interface ExecLines {
  readonly producerValve: Demand;
  push(event: ExecEvent): void;
  /** The ending, behind every event pushed before it. */
  end(ending: QueueEnding): void;
  /** The consumer left: nothing more goes out. */
  close(): void;
}

/**
 * The lines on their way to `subscriber`, gated by the consumer's demand. The pipes are read only
 * while nothing waits here and the demand flows (a gate that holds the producer): the child then
 * blocks on its full pipe, and at most the lines of the read in hand wait here.
 *
 * When `subscriber` offers its consumer's queue ({@link directSinkOf}: `toAsyncIterable(exec(…))`,
 * `onChunk(exec(…), …)` with nothing between), the lines go straight into that queue and the pipes
 * follow its valve: the lines of the read in hand then wait there, and each line is queued once
 * instead of twice. Not when the caller gave `demand` itself (`options.demand`): that governs.
 */
export function execLineQueue(
  subscriber: Subscriber<ExecEvent>,
  demand: Demand | undefined,
  demandGiven: boolean,
): ExecLines {
  const sink = demandGiven ? undefined : directSinkOf<ExecEvent>(subscriber);
  if (sink !== undefined) return new DirectLines(subscriber, sink);
  const options = {
    highWater: 1,
    lowWater: 0,
    deliver: (event: ExecEvent) => subscriber.next(event),
    finish: (ending: QueueEnding) => (ending.error ? subscriber.error(ending.reason) : subscriber.complete()),
  };
  return demand === undefined
    ? new DemandQueue(options)
    : new DemandQueue(options, new DemandGate(demand, true));
}

/** The lines pushed into the consumer's own queue; the ending through the subscriber (it queues it behind them). */
class DirectLines implements ExecLines {
  readonly producerValve: Demand;
  readonly #subscriber: Subscriber<ExecEvent>;
  readonly #sink: DirectSink<ExecEvent>;
  #open = true;

  constructor(subscriber: Subscriber<ExecEvent>, sink: DirectSink<ExecEvent>) {
    this.#subscriber = subscriber;
    this.#sink = sink;
    this.producerValve = sink.demand;
  }

  push(event: ExecEvent): void {
    if (this.#open) this.#sink.push(event);
  }

  end(ending: QueueEnding): void {
    if (!this.#open) return;
    this.#open = false;
    if (ending.error) this.#subscriber.error(ending.reason);
    else this.#subscriber.complete();
  }

  close(): void {
    this.#open = false;
  }
}
