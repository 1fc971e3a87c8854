import { from, Observable, type ObservableInput } from 'rxjs';
import { createOperatorSubscriber } from '../core/operate.js';
import { demandOf, subscribeWithDemand } from '../core/subscriber-chain.js';
import { HeldDemand } from './held-demand.js';

/**
 * `input` as RxJS's own buffering operator should see it: subscribed with a {@link HeldDemand} of
 * `limit` — combined with the demand of the subscriber it is given (the operator's, whose chain
 * leads to the consumer) — that counts each value it emits as held. `started` receives that
 * demand once per subscription, so the operator can count what it lets go. Nothing else changes:
 * the same values, errors, completion and subscription timing. Internal to `src/operators`.
 *
 * @example
 * ```ts
 * const counted = countedSource(source, 17, (demand) => (held = demand));
 * rxMergeMap((value) => work(value).pipe(finalize(() => held.take())), 1)(counted);
 * ```
 */
export function countedSource<T>(
  input: ObservableInput<T>,
  limit: number,
  started: (held: HeldDemand) => void,
): Observable<T> {
  return new Observable<T>((subscriber) => {
    // A zip that failed on an earlier source subscribes no more of them (as RxJS's own).
    if (subscriber.closed) return undefined;
    const source = from(input);
    const held = new HeldDemand(limit, demandOf(subscriber));
    started(held);
    const upstream = createOperatorSubscriber<T>(subscriber, (value) => {
      held.add();
      subscriber.next(value);
    });
    subscribeWithDemand(source, held, upstream);
    return () => held.stop();
  });
}
