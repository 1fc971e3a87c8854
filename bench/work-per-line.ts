import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  from,
  map,
  type Observable,
  type OperatorFunction,
  concatMap as rxConcatMap,
  mergeMap as rxMergeMap,
  zip as rxZip,
} from 'rxjs';
import { exec } from '../src/index.js';
import { concatMap, mergeMap, zip } from '../src/operators/index.js';
import type { SlowRun } from './slow-consumer.js';

/** About a millisecond of asynchronous work on a line (a write to a store, an HTTP call). */
export const work1ms = async <T>(line: T): Promise<T> => {
  await sleep(1);
  return line;
};
/** Four times that, for a pool of four. */
const work4ms = async <T>(line: T): Promise<T> => {
  await sleep(4);
  return line;
};

const lines = (run: SlowRun): Observable<unknown> =>
  exec(run.command, run.args).pipe(map((event) => event.content));
/** A second child that writes one line per millisecond (bench/fixtures/paced-lines.py). */
const pacedLines = (run: SlowRun): Observable<unknown> =>
  exec('python3', [join(dirname(run.args[0] as string), 'paced-lines.py'), '100000000', '1000']).pipe(
    map((event) => event.content),
  );

/** The consumer of every RxJS variant: a plain `subscribe()` (no demand at all), until the run is over. */
async function subscribeUntilOver(worked: Observable<unknown>, run: SlowRun): Promise<void> {
  const subscription = worked.subscribe({ next: () => run.take() });
  await run.over;
  subscription.unsubscribe();
}

const pipeline = (operator: OperatorFunction<unknown, unknown>) => (run: SlowRun) =>
  subscribeUntilOver(lines(run).pipe(operator), run);

/**
 * Async work per line *inside* the pipeline, against `flood.py` for `slowMs`, measured like the
 * slow consumers (the child's lead from `/proc/<pid>/io` wchar, the parent's RSS): sluice's
 * `concatMap` / `mergeMap(…, 4)` / `zip` beside RxJS's own, each with a plain `subscribe()` at the
 * end (the peers' idioms are in bench/work-peers.ts). See docs/backpressure.md, "Operators that
 * hold values".
 *
 * @example
 * ```ts
 * await measureSlow(workVariants['work-concatmap'], side, flood, 3000);
 * ```
 */
export const workVariants: Record<string, (run: SlowRun) => Promise<void>> = {
  'work-concatmap': pipeline(concatMap((line) => from(work1ms(line)))),
  'work-concatmap-rxjs': pipeline(rxConcatMap((line) => from(work1ms(line)))),
  'work-mergemap': pipeline(mergeMap((line) => from(work4ms(line)), 4)),
  'work-mergemap-rxjs': pipeline(rxMergeMap((line) => from(work4ms(line)), 4)),
  'work-zip': (run) => subscribeUntilOver(zip(lines(run), pacedLines(run)), run),
  'work-zip-rxjs': (run) => subscribeUntilOver(rxZip(lines(run), pacedLines(run)), run),
};
