import { spawn } from 'node:child_process';
import { concatMap, fromEvent, map, mergeMap, Observable, share as rxShare, takeUntil, timer } from 'rxjs';
import { exec, share, toAsyncIterable } from '../src/index.js';
import { consumeSlowly, SLOW_BUFFER_SIZE, type SlowRun } from './slow-consumer.js';

/**
 * The naive way to put a command in a pipeline: `spawn` and `fromEvent(stdout, 'data')`, split into
 * lines. Nothing can pause it; unsubscribing kills the child.
 */
function naiveExec(command: string, args: readonly string[]): Observable<string> {
  return new Observable<string>((subscriber) => {
    const child = spawn(command, [...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let carry = '';
    const subscription = fromEvent(child.stdout, 'data')
      .pipe(
        mergeMap((chunk) => {
          const lines = (carry + String(chunk)).split('\n');
          carry = lines.pop() ?? '';
          return lines;
        }),
      )
      .subscribe(subscriber);
    return () => {
      subscription.unsubscribe();
      child.kill('SIGKILL');
    };
  });
}

const sluiceLines = (run: SlowRun) => exec(run.command, run.args).pipe(map((event) => event.content));
const naiveLines = (run: SlowRun) => naiveExec(run.command, run.args);
/** The consumer: `for await` over `toAsyncIterable` (16), one line per millisecond. */
const consume = (source: Observable<unknown>, run: SlowRun) =>
  consumeSlowly(toAsyncIterable(source, { bufferSize: SLOW_BUFFER_SIZE, onIgnoredDemand: 'ignore' }), run);
/** A second consumer that takes everything at once, until the run is over. */
const fastConsumer = (source: Observable<unknown>, run: SlowRun) =>
  source.pipe(takeUntil(run.over)).subscribe();

/**
 * Compositions of a command behind RxJS operators, subscribed later than the consumer (an
 * asynchronous trigger), each with sluice's `exec` and with the naive `fromEvent` pipeline: a
 * queue of commands (`concatMap`), a pool (`mergeMap`), and one run shown in two views (`share`:
 * a fast consumer and the metered slow one). Measured like the slow consumers: the child's lead
 * and the parent's RSS.
 *
 * @example
 * ```ts
 * await measureSlow(composeVariants['compose-concatmap'], side, flood, 3000);
 * ```
 */
export const composeVariants: Record<string, (run: SlowRun) => Promise<void>> = {
  'compose-concatmap': (run) => consume(timer(5).pipe(concatMap(() => sluiceLines(run))), run),
  'compose-concatmap-naive': (run) => consume(timer(5).pipe(concatMap(() => naiveLines(run))), run),
  'compose-mergemap': (run) => consume(timer(5).pipe(mergeMap(() => sluiceLines(run), 2)), run),
  'compose-mergemap-naive': (run) => consume(timer(5).pipe(mergeMap(() => naiveLines(run), 2)), run),
  'compose-share': async (run) => {
    const shared = sluiceLines(run).pipe(share());
    const fast = fastConsumer(shared, run);
    await consume(shared, run);
    fast.unsubscribe();
  },
  'compose-share-naive': async (run) => {
    const shared = naiveLines(run).pipe(rxShare());
    const fast = fastConsumer(shared, run);
    await consume(shared, run);
    fast.unsubscribe();
  },
};
