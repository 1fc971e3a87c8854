import {
  finalize,
  from,
  type Observable,
  type ObservableInput,
  type ObservedValueOf,
  type OperatorFunction,
  mergeMap as rxMergeMap,
} from 'rxjs';
import { operate } from '../core/operate.js';
import { countedSource } from './counted-source.js';
import type { HeldDemand } from './held-demand.js';
import { type PrefetchConfig, readPrefetch } from './prefetch-config.js';

type ResultSelector<T, I, R> = (outerValue: T, innerValue: I, outerIndex: number, innerIndex: number) => R;

/**
 * RxJS's `mergeMap`, pausing its source while it holds too many values: a drop-in with the same
 * signatures (plus an optional {@link PrefetchConfig}), and RxJS's own operator doing the
 * merging — the same values, order, errors, completion and subscriptions.
 *
 * RxJS's `mergeMap(project, concurrent)` keeps every value that arrives while `concurrent` inner
 * observables run in a private buffer, and nothing asks the source to wait: with async work per
 * line, a child process floods the buffer. This one gives its source a demand (see
 * docs/backpressure.md, "Operators that hold values") that is paused while it holds
 * `concurrent + prefetch` values (values waiting, and those whose inner observable still runs;
 * with unbounded concurrency, `prefetch` inner observables running), until it is down to half of
 * that, **or** while the consumer below is paused. A producer that reads its demand (`exec`,
 * `fromHttp`, …) then stops reading; one that cannot pause is merged exactly as RxJS does.
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
 * RxJS's deprecated form with a result selector, called with the outer value, the inner value
 * and their indexes.
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
    let held: HeldDemand | undefined;
    const counted = countedSource(source, limit, (demand) => {
      held = demand;
    });
    // An inner observable that ends (or is cut off) gives back the value it was working on.
    const release = () => held?.take();
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
