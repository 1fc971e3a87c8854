import type { ObservableInput, ObservedValueOf, OperatorFunction } from 'rxjs';
import { mergeAll } from './merge-all.js';
import type { PrefetchConfig } from './prefetch-config.js';

/**
 * RxJS's `concatAll`, pausing its source while it holds `1 + prefetch` inner observables (the
 * one running and `prefetch` waiting; see sluice's {@link concatMap}): a drop-in with the same
 * signature, plus an optional {@link PrefetchConfig}.
 *
 * @example
 * ```ts
 * import { concatAll } from 'sluice/operators';
 * lines$.pipe(map((line) => from(save(line))), concatAll()).subscribe();
 * ```
 */
export function concatAll<O extends ObservableInput<any>>(
  config?: PrefetchConfig,
): OperatorFunction<O, ObservedValueOf<O>> {
  return mergeAll(1, config);
}
