import { finalize, from, type ObservableInput, type OperatorFunction, mergeScan as rxMergeScan } from 'rxjs';
import { operate } from '../core/operate.js';
import { countedSource, type PrefetchConfig, readPrefetch } from './prefetch.js';

/**
 * RxJS's `mergeScan`, pausing its source while it holds too many values — `concurrent +
 * prefetch` (waiting, and whose accumulated observable still runs), or `prefetch` running with
 * unbounded concurrency, until down to half, or while the consumer below is paused (see sluice's
 * {@link mergeMap}). A drop-in with the same signature, plus an optional {@link PrefetchConfig};
 * RxJS's own operator does the work.
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
