import { type Observable, type Observer, Subscriber, type Subscription } from 'rxjs';
import type { Demand } from './demand.js';
import { ObserverSubscriber, tagDemand } from './subscriber-chain.js';

/**
 * Subscribes `observer` to `source` carrying `demand` — the one way a consumer hands its demand
 * to the producers above it (see docs/backpressure.md). The demand rides on the subscriber chain,
 * where {@link demandOf} finds it, so producers subscribed later (by `concatMap`, `retry`, a second
 * consumer of `share()`) see it too. `null` means explicitly none: what is above pushes freely,
 * whatever a consumer further down asks (exec's `input`, a stream the caller does not govern).
 *
 * - A plain observer is wrapped in a subscriber that carries `demand`; what its callbacks throw is
 *   reported on a later tick, as RxJS does for `subscribe(observer)`.
 * - A `Subscriber` of your own (made for this one subscription, such as an operator's
 *   `createOperatorSubscriber(...)`) carries `demand` itself: no extra hop per value.
 * - `owner`, when given, holds the subscription before `source` is subscribed: unsubscribing it
 *   from a callback stops even a synchronous source mid-way.
 *
 * Returns the subscription (the subscriber itself).
 *
 * @example
 * ```ts
 * import { Valve, subscribeWithDemand } from 'sluice';
 * const valve = new Valve();
 * const subscription = subscribeWithDemand(exec('make').pipe(map(render)), valve, {
 *   next: (line) => (buffer.push(line) >= 16 ? valve.pause() : undefined),
 * });
 * valve.resume(); // once the buffer is drained: make's pipe is read again
 * ```
 */
export function subscribeWithDemand<T>(
  source: Observable<T>,
  demand: Demand | null,
  observer: Partial<Observer<T>> | Subscriber<T>,
  owner?: Subscription,
): Subscription {
  const subscriber = tagDemand(
    observer instanceof Subscriber ? observer : new ObserverSubscriber(observer),
    demand,
  );
  owner?.add(subscriber);
  return source.subscribe(subscriber);
}
