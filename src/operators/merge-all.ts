import { identity, type ObservableInput, type ObservedValueOf, type OperatorFunction } from 'rxjs';
import { mergeMap } from './merge-map.js';
import type { PrefetchConfig } from './prefetch-config.js';

/**
 * RxJS's `mergeAll`, pausing its source while it holds too many inner observables (see sluice's
 * {@link mergeMap}: `concurrent + prefetch` held, or `prefetch` running with unbounded
 * concurrency): a drop-in with the same signature, plus an optional {@link PrefetchConfig}.
 *
 * @example
 * ```ts
 * import { mergeAll } from 'sluice/operators';
 * commands$.pipe(map(([file, args]) => exec(file, args)), mergeAll(2)).subscribe(render);
 * ```
 */
export function mergeAll<O extends ObservableInput<any>>(
  concurrent?: number,
  config?: PrefetchConfig,
): OperatorFunction<O, ObservedValueOf<O>> {
  return mergeMap(identity, concurrent, config);
}
