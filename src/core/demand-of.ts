import type { Subscriber } from 'rxjs';
import { AggregateDemand } from './aggregate-demand.js';
import type { Demand } from './demand.js';
import { type ChainDemand, type SubjectNode, subjectObservers, walkChain } from './subscriber-chain.js';

const subjects = new WeakMap<SubjectNode, AggregateDemand>();

/**
 * The demand of the consumer that `subscriber` ends up delivering to — what a producer calls,
 * first thing in its subscribe function, to know when to stop reading.
 *
 * It walks the subscriber chain from `subscriber` down to the consumer (see
 * docs/backpressure.md), so it does not matter *when* the producer is subscribed: the inner
 * observables of `concatMap`, `mergeMap`, `switchMap`, `exhaustMap`, `concat`, `merge`, `race`,
 * `defer`, and the re-subscriptions of `retry`, `repeat` and `catchError` all find the demand of
 * the adapter (`toAsyncIterable`, `onChunk`, `toReadableStream`, a {@link subscribeWithDemand})
 * at the end of their chain. Through a `Subject` (and so `connectable()`, and sluice's `share()`)
 * it is the combined demand of the Subject's subscribers: paused while any of them is.
 *
 * Where the chain says nothing (plain `subscribe()`, or an observer that hides what is below it)
 * it returns `undefined`: nobody asked, push freely.
 *
 * @example
 * ```ts
 * import { Observable } from 'rxjs';
 * import { demandOf } from 'sluice';
 * const source = new Observable<string>((subscriber) => {
 *   const demand = demandOf(subscriber);
 *   const stop = demand?.onChange((paused) => (paused ? pipe.pause() : pipe.resume()));
 *   if (demand?.paused) pipe.pause();
 *   return () => stop?.();
 * });
 * ```
 */
export function demandOf(subscriber: Subscriber<any>): Demand | undefined {
  return resolve(walkChain(subscriber));
}

/**
 * {@link demandOf} for any member of a Subject's subscriber list (typed `unknown` there): how a
 * group of consumers (`AggregateDemand`) finds each member's. Internal: not exported from the
 * package.
 *
 * @example
 * ```ts
 * new AggregateDemand(() => subject.observers, 'slowest', chainDemand);
 * ```
 */
export function chainDemand(member: unknown): Demand | undefined {
  return resolve(walkChain(member));
}

function resolve(found: ChainDemand): Demand | undefined {
  if (found === undefined || found === null) return undefined;
  return 'subject' in found ? subjectDemand(found.subject) : found;
}

/** The slowest-governed demand of a Subject's subscribers: one per Subject. */
function subjectDemand(subject: SubjectNode): Demand {
  let demand = subjects.get(subject);
  if (demand === undefined) {
    demand = new AggregateDemand(() => subjectObservers(subject), 'slowest', chainDemand);
    subjects.set(subject, demand);
  }
  return demand;
}
