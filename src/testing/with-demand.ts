import { Observable } from 'rxjs';
import type { Demand } from '../core/demand.js';
import { subscribeWithDemand } from '../core/subscriber-chain.js';

/**
 * `source`, subscribed with `demand` as the consumer's demand — what an adapter
 * (`toAsyncIterable`, `onChunk`, `toReadableStream`) does — so a test can drive backpressure with a
 * {@link Valve} or {@link demandMarbles} and still use `expectObservable`. The demand is carried
 * on the subscriber chain, so producers subscribed later (by `concatMap`, `retry`, …) see it too.
 *
 * @example
 * ```ts
 * import { demandMarbles, withDemand } from 'sluice/testing';
 * const slow = withDemand(demandMarbles('--p---r'), exec('make', [], { port, scheduler }));
 * ```
 */
export function withDemand<T>(demand: Demand | undefined, source: Observable<T>): Observable<T> {
  return new Observable<T>((subscriber) => subscribeWithDemand(source, demand ?? null, subscriber));
}
