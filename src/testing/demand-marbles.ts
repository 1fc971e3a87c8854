import { asyncScheduler, Observable, type SchedulerLike } from 'rxjs';
import { type Demand, Valve } from '../core/demand.js';
import { optionError } from '../core/option-error.js';
import { subscribeWithDemand } from '../core/subscriber-chain.js';
import { parseTimeline } from './parse-timeline.js';

/**
 * A consumer's demand played from a marble diagram: a {@link Valve} that pauses at each `p` and
 * resumes at each `r`, at those times of `scheduler` from now (as a hot observable's frames). Give
 * it to the code under test as its demand ({@link withDemand}, `exec(…, { demand })`).
 *
 * @example
 * ```ts
 * import { demandMarbles, withDemand } from 'sluice/testing';
 * testScheduler.run(({ expectObservable }) => {
 *   const consumer = demandMarbles('---p----r'); // paused from 3 to 8
 *   expectObservable(withDemand(consumer, source$.pipe(bounded({ bufferSize: 2 })))).toBe(expected, values);
 * });
 * ```
 */
export function demandMarbles(marbles: string, scheduler: SchedulerLike = asyncScheduler): Valve {
  const timeline = parseTimeline(marbles, undefined, 'marbles');
  const valve = new Valve();
  if (timeline.some((entry) => entry.kind !== 'N' || (entry.value !== 'p' && entry.value !== 'r'))) {
    throw optionError('marbles', "a diagram of 'p' (pause) and 'r' (resume)", marbles, 'argument');
  }
  for (const entry of timeline) {
    const signal = (entry as { value: string }).value;
    const act = () => (signal === 'p' ? valve.pause() : valve.resume());
    if (entry.frame === 0) act();
    else scheduler.schedule(act, entry.frame);
  }
  return valve;
}

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
