import {
  finalize,
  from,
  identity,
  type Observable,
  type ObservableInput,
  type ObservedValueOf,
  type OperatorFunction,
  mergeMap as rxMergeMap,
} from 'rxjs';
import { operate } from '../core/operate.js';
import { countedSource, type PrefetchConfig, readPrefetch } from './prefetch.js';

/** RxJS's deprecated result selector of `mergeMap` and `concatMap`. */
type ResultSelector<T, I, R> = (outerValue: T, innerValue: I, outerIndex: number, innerIndex: number) => R;

/**
 * RxJS's `mergeMap`, pausing its source while it holds too many values: a drop-in with the same
 * signatures (plus an optional {@link PrefetchConfig}), RxJS's own operator doing the merging.
 *
 * RxJS's keeps every value that arrives while `concurrent` inner observables run, and nothing asks
 * the source to wait. This one pauses its source while it holds `concurrent + prefetch` values
 * (waiting or still worked on; with unbounded concurrency, `prefetch` running), until down to
 * half, **or** while the consumer below is paused (docs/backpressure.md, "Operators that hold
 * values"). A source that cannot pause is merged exactly as RxJS does.
 *
 * @example
 * ```ts
 * import { exec } from 'sluice/sources';
 * import { mergeMap } from 'sluice/operators';
 * exec('cat', ['urls.txt'])
 *   .pipe(mergeMap((event) => from(fetchOne(event.content)), 4)) // cat waits while 4 + 16 are held
 *   .subscribe(console.log);
 * ```
 */
export function mergeMap<T, O extends ObservableInput<any>>(
  project: (value: T, index: number) => O,
  concurrent?: number,
  config?: PrefetchConfig,
): OperatorFunction<T, ObservedValueOf<O>>;
/**
 * RxJS's deprecated form with `resultSelector` undefined and the concurrency third.
 *
 * @deprecated Leave the result selector out: `mergeMap(project, concurrent, config)`.
 * @example
 * ```ts
 * urls$.pipe(mergeMap((url) => from(fetchOne(url)), undefined, 4));
 * ```
 */
export function mergeMap<T, O extends ObservableInput<any>>(
  project: (value: T, index: number) => O,
  resultSelector: undefined,
  concurrent?: number,
  config?: PrefetchConfig,
): OperatorFunction<T, ObservedValueOf<O>>;
/**
 * RxJS's deprecated form with a result selector.
 *
 * @deprecated Use an inner `map` instead, as RxJS says.
 * @example
 * ```ts
 * urls$.pipe(mergeMap((url) => from(fetchOne(url)), (url, body) => ({ url, body }), 4));
 * ```
 */
export function mergeMap<T, R, O extends ObservableInput<any>>(
  project: (value: T, index: number) => O,
  resultSelector: ResultSelector<T, ObservedValueOf<O>, R>,
  concurrent?: number,
  config?: PrefetchConfig,
): OperatorFunction<T, R>;
export function mergeMap<T, R, O extends ObservableInput<any>>(
  project: (value: T, index: number) => O,
  second?: ResultSelector<T, ObservedValueOf<O>, R> | number,
  third?: number | PrefetchConfig,
  fourth?: PrefetchConfig,
): OperatorFunction<T, R | ObservedValueOf<O>> {
  const { resultSelector, concurrent, config } = readArguments(second, third, fourth);
  const prefetch = readPrefetch(config);
  const limit = prefetch + (Number.isFinite(concurrent) && concurrent > 0 ? concurrent : 0);
  return operate((source, subscriber) => {
    const { source: counted, release } = countedSource(source, limit);
    // An inner observable that ends (or is cut off) gives back the value it was working on.
    const work = (value: T, index: number): Observable<ObservedValueOf<O>> =>
      from(project(value, index)).pipe(finalize(release));
    const merged: Observable<R | ObservedValueOf<O>> =
      resultSelector === undefined
        ? rxMergeMap(work, concurrent)(counted)
        : rxMergeMap<T, R, Observable<ObservedValueOf<O>>>(work, resultSelector, concurrent)(counted);
    return merged.subscribe(subscriber);
  });
}

/** RxJS's overloads, read as it reads them: a function second is the deprecated result selector. */
function readArguments<S>(
  second: S | number | undefined,
  third: number | PrefetchConfig | undefined,
  fourth: PrefetchConfig | undefined,
): { resultSelector: S | undefined; concurrent: number; config: PrefetchConfig | undefined } {
  if (typeof second === 'function') {
    return { resultSelector: second, concurrent: (third as number | undefined) ?? Infinity, config: fourth };
  }
  if (typeof second === 'number') {
    return { resultSelector: undefined, concurrent: second, config: third as PrefetchConfig | undefined };
  }
  if (typeof third === 'number') return { resultSelector: undefined, concurrent: third, config: fourth };
  return { resultSelector: undefined, concurrent: Infinity, config: third };
}

/**
 * RxJS's `mergeAll`, pausing its source while it holds too many inner observables, as sluice's
 * {@link mergeMap} does: a drop-in, plus an optional {@link PrefetchConfig}.
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

/**
 * RxJS's `concatAll`, pausing its source while it holds `1 + prefetch` inner observables (see
 * sluice's {@link concatMap}): a drop-in, plus an optional {@link PrefetchConfig}.
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

/**
 * RxJS's `concatMap`, pausing its source while it holds too many values: a drop-in with the same
 * signatures (plus an optional {@link PrefetchConfig}), RxJS's own operator doing the work.
 *
 * RxJS's keeps every value that arrives while an inner observable runs, and nothing asks the
 * source to wait. This one pauses its source while it holds `1 + prefetch` values (default 16),
 * until down to half, **or** while the consumer below is paused — whatever is at the end
 * (docs/backpressure.md, "Operators that hold values").
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
 * RxJS's deprecated form with a result selector.
 *
 * @deprecated Use an inner `map` instead, as RxJS says.
 * @example
 * ```ts
 * ids$.pipe(concatMap((id) => from(load(id)), (id, record) => ({ id, record })));
 * ```
 */
export function concatMap<T, R, O extends ObservableInput<any>>(
  project: (value: T, index: number) => O,
  resultSelector: ResultSelector<T, ObservedValueOf<O>, R>,
  config?: PrefetchConfig,
): OperatorFunction<T, R>;
export function concatMap<T, R, O extends ObservableInput<any>>(
  project: (value: T, index: number) => O,
  second?: ResultSelector<T, ObservedValueOf<O>, R> | PrefetchConfig,
  third?: PrefetchConfig,
): OperatorFunction<T, R | ObservedValueOf<O>> {
  if (typeof second === 'function') return mergeMap(project, second, 1, third);
  return mergeMap(project, 1, second ?? third);
}
