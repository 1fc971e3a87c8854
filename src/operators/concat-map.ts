import type { ObservableInput, ObservedValueOf, OperatorFunction } from 'rxjs';
import { mergeMap } from './merge-map.js';
import type { PrefetchConfig } from './prefetch-config.js';

/**
 * RxJS's `concatMap`, pausing its source while it holds too many values: a drop-in with the same
 * signatures (plus an optional {@link PrefetchConfig}); RxJS's own operator does the work, so
 * values, order, errors, completion and subscriptions are RxJS's.
 *
 * RxJS's `concatMap` keeps every value that arrives while an inner observable runs in a private
 * buffer, and nothing asks the source to wait: `exec(…).pipe(concatMap((e) => from(save(e))))`
 * lets the child run hundreds of thousands of lines ahead. This one pauses its source while it
 * holds `1 + prefetch` values (the one being worked on and `prefetch` waiting, default 16), until
 * it is down to half of that, **or** while the consumer below is paused — with a plain
 * `subscribe()`, `lastValueFrom` or any adapter at the end. See docs/backpressure.md, "Operators
 * that hold values".
 *
 * @example
 * ```ts
 * import { exec } from 'sluice/sources';
 * import { concatMap } from 'sluice/operators';
 * exec('python3', ['produce.py'])
 *   .pipe(concatMap((event) => from(saveLine(event.content)))) // python waits while 17 are held
 *   .subscribe();
 * ```
 */
export function concatMap<T, O extends ObservableInput<any>>(
  project: (value: T, index: number) => O,
  config?: PrefetchConfig,
): OperatorFunction<T, ObservedValueOf<O>>;
/**
 * RxJS's deprecated form with `resultSelector` undefined: the same as {@link concatMap}`(project, config)`.
 *
 * @deprecated Leave the result selector out.
 * @example
 * ```ts
 * lines$.pipe(concatMap((line) => from(save(line)), undefined, { prefetch: 32 }));
 * ```
 */
export function concatMap<T, O extends ObservableInput<any>>(
  project: (value: T, index: number) => O,
  resultSelector: undefined,
  config?: PrefetchConfig,
): OperatorFunction<T, ObservedValueOf<O>>;
/**
 * RxJS's deprecated form with a result selector, called with the outer value, the inner value
 * and their indexes.
 *
 * @deprecated Use an inner `map` instead, as RxJS says.
 * @example
 * ```ts
 * ids$.pipe(concatMap((id) => from(load(id)), (id, record) => ({ id, record })));
 * ```
 */
export function concatMap<T, R, O extends ObservableInput<any>>(
  project: (value: T, index: number) => O,
  resultSelector: (
    outerValue: T,
    innerValue: ObservedValueOf<O>,
    outerIndex: number,
    innerIndex: number,
  ) => R,
  config?: PrefetchConfig,
): OperatorFunction<T, R>;
export function concatMap<T, R, O extends ObservableInput<any>>(
  project: (value: T, index: number) => O,
  second?:
    | ((outerValue: T, innerValue: ObservedValueOf<O>, outerIndex: number, innerIndex: number) => R)
    | PrefetchConfig,
  third?: PrefetchConfig,
): OperatorFunction<T, R | ObservedValueOf<O>> {
  if (typeof second === 'function') return mergeMap(project, second, 1, third);
  return mergeMap(project, 1, second ?? third);
}
