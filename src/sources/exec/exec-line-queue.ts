import type { Subscriber } from 'rxjs';
import type { Demand } from '../../core/demand.js';
import { DemandGate } from '../../core/queue/demand-gate.js';
import { DemandQueue, type QueueEnding } from '../../core/queue/demand-queue.js';
import type { ExecEvent } from './exec-types.js';

/**
 * The lines on their way to `subscriber`, gated by the consumer's demand. The pipes are read only
 * while nothing waits here and the demand flows (a gate that holds the producer): the child then
 * blocks on its full pipe, and at most the lines of the read in hand wait here.
 *
 * @example
 * ```ts
 * const lines = execLineQueue(subscriber, demandOf(subscriber));
 * lines.upstream.onChange((paused) => (paused ? handle.pause() : handle.resume()));
 * ```
 */
export function execLineQueue(
  subscriber: Subscriber<ExecEvent>,
  demand: Demand | undefined,
): DemandQueue<ExecEvent> {
  const sink = {
    highWater: 1,
    lowWater: 0,
    deliver: (event: ExecEvent) => subscriber.next(event),
    finish: (ending: QueueEnding) => (ending.error ? subscriber.error(ending.reason) : subscriber.complete()),
  };
  return demand === undefined ? new DemandQueue(sink) : new DemandQueue(sink, new DemandGate(demand, true));
}
