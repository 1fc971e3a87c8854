import { finalize, from, type ObservableInput, type OperatorFunction, mergeScan as rxMergeScan } from 'rxjs';
import { operate } from '../core/operate.js';
import { countedSource, type PrefetchConfig, readPrefetch } from './prefetch.js';

/**
 * RxJS's `mergeScan`, pausing its source while it holds too many values, as sluice's
 * {@link mergeMap} does: a drop-in, plus an optional {@link PrefetchConfig}.
 *
 * @example
 * ```ts
 * import { mergeScan } from 'sluice/operators';
 * exec('cat', ['events.log'])
 *   .pipe(mergeScan((total, event) => from(store(total, event)), 0, 1))
 *   .subscribe(console.log);
 * ```
 */
export function mergeScan<T, R>(
  accumulator: (acc: R, value: T, index: number) => ObservableInput<R>,
  initial: R,
  concurrent?: number,
  config?: PrefetchConfig,
): OperatorFunction<T, R> {
  const prefetch = readPrefetch(config);
  const bound = concurrent ?? Infinity;
  const limit = prefetch + (Number.isFinite(bound) && bound > 0 ? bound : 0);
  return operate<T, R>((source, subscriber) => {
    const { source: counted, release } = countedSource(source, limit);
    const step = (acc: R, value: T, index: number) =>
      from(accumulator(acc, value, index)).pipe(finalize(release));
    return rxMergeScan(step, initial, concurrent)(counted).subscribe(subscriber);
  });
}
