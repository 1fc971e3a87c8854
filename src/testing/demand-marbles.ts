import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { Valve } from '../core/demand.js';
import { optionError } from '../core/option-error.js';
import { parseTimeline } from './parse-timeline.js';

/**
 * A consumer's demand played from a marble diagram: a {@link Valve} that pauses at each `p` and
 * resumes at each `r`, at those virtual times from now (like a hot observable: the frames are
 * absolute within `TestScheduler.run`). Give it to the code under test as its demand
 * ({@link withDemand}, `exec(…, { demand })`) to script a slow consumer.
 *
 * The times run on `scheduler` (default `asyncScheduler`, which is virtual inside `run`).
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
  for (const entry of timeline) {
    if (entry.kind !== 'N' || (entry.value !== 'p' && entry.value !== 'r')) {
      throw optionError('marbles', "a diagram of 'p' (pause) and 'r' (resume)", marbles, 'argument');
    }
  }
  for (const entry of timeline) {
    const signal = (entry as { value: string }).value;
    const act = () => (signal === 'p' ? valve.pause() : valve.resume());
    if (entry.frame === 0) act();
    else scheduler.schedule(act, entry.frame);
  }
  return valve;
}
