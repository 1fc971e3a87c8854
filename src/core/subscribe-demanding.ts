import type { Observable, Subscriber, Subscription } from 'rxjs';
import { type Demand, subscribeWithDemand } from './demand.js';
import { tagDemand } from './subscriber-chain.js';

/**
 * Subscribes `subscriber` to `source` carrying `demand` (`null`: explicitly none, push freely):
 * on the subscriber chain, where {@link demandOf} finds it whenever a producer above is
 * subscribed, and as the legacy subscribe-time context ({@link currentDemand}) for producers
 * that still read that. What every sluice consumer and buffering operator subscribes with.
 *
 * @example
 * ```ts
 * const upstream = createOperatorSubscriber(subscriber, (value) => queue.push(value));
 * subscribeDemanding(source, queue.upstream, upstream); // the source pauses with the queue
 * ```
 */
export function subscribeDemanding<T>(
  source: Observable<T>,
  demand: Demand | null,
  subscriber: Subscriber<T>,
): Subscription {
  tagDemand(subscriber, demand);
  return subscribeWithDemand(demand ?? undefined, () => source.subscribe(subscriber));
}
