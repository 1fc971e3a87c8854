import {
  type Cons,
  identity,
  map,
  Observable,
  type ObservableInput,
  type ObservableInputTuple,
  type OperatorFunction,
  mergeMap as rxMergeMap,
  zip as rxZip,
  toArray,
} from 'rxjs';
import { createOperatorSubscriber, operate } from '../core/operate.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { countedSource, type PrefetchConfig, readPrefetch } from './prefetch.js';

/**
 * RxJS's `zip`, pausing each source that gets ahead: a drop-in with the same signatures (plus, in
 * the array form, an optional {@link PrefetchConfig} last), RxJS's own `zip` doing the zipping.
 * Each source is paused while `prefetch` of its values (default 16) wait for a partner, until down
 * to half, **or** while the consumer below is paused (docs/backpressure.md, "Operators that hold
 * values").
 *
 * @example
 * ```ts
 * import { exec } from 'sluice/sources';
 * import { zip } from 'sluice/operators';
 * zip(exec('cat', ['names.txt']), exec('cat', ['scores.txt'])) // the faster cat waits
 *   .subscribe(([name, score]) => console.log(name.content, score.content));
 * ```
 */
export function zip<A extends readonly unknown[]>(
  sources: [...ObservableInputTuple<A>],
  config?: PrefetchConfig,
): Observable<A>;
/**
 * {@link zip} of an array of sources, each tuple passed to `resultSelector`.
 *
 * @example
 * ```ts
 * zip([names$, scores$], (name, score) => `${name}: ${score}`, { prefetch: 32 }).subscribe(console.log);
 * ```
 */
export function zip<A extends readonly unknown[], R>(
  sources: [...ObservableInputTuple<A>],
  resultSelector: (...values: A) => R,
  config?: PrefetchConfig,
): Observable<R>;
/**
 * {@link zip} of the sources given as arguments (each paused 16 values ahead of the others).
 *
 * @example
 * ```ts
 * zip(names$, scores$).subscribe(([name, score]) => console.log(name, score));
 * ```
 */
export function zip<A extends readonly unknown[]>(...sources: [...ObservableInputTuple<A>]): Observable<A>;
/**
 * {@link zip} of the sources given as arguments, each tuple passed to the function given last.
 *
 * @example
 * ```ts
 * zip(names$, scores$, (name, score) => `${name}: ${score}`).subscribe(console.log);
 * ```
 */
export function zip<A extends readonly unknown[], R>(
  ...sourcesAndResultSelector: [...ObservableInputTuple<A>, (...values: A) => R]
): Observable<R>;
export function zip(...args: unknown[]): Observable<unknown> {
  const { sources, resultSelector, config } = readZipArguments(args);
  const prefetch = readPrefetch(config);
  if (sources.length === 0) return rxZip([]);
  return new Observable<unknown>((subscriber) => {
    const counted = sources.map((source) => countedSource(source, prefetch));
    const inputs = counted.map(({ source }) => source);
    const zipped = resultSelector === undefined ? rxZip(inputs) : rxZip(inputs, resultSelector);
    // A tuple gives back one value of each source once it has been handed on: a source resumed
    // by it (and pushing at once) zips its next tuple after this one, never inside it.
    const upstream = createOperatorSubscriber<unknown>(subscriber, (tuple) => {
      subscriber.next(tuple);
      for (const { release } of counted) release();
    });
    zipped.subscribe(upstream);
    return undefined;
  });
}

/** RxJS's argument forms: an array of sources or spread ones, a trailing function, and ours. */
function readZipArguments(args: unknown[]): {
  sources: ObservableInput<unknown>[];
  resultSelector: ((...values: unknown[]) => unknown) | undefined;
  config: PrefetchConfig | undefined;
} {
  let config: PrefetchConfig | undefined;
  if (Array.isArray(args[0]) && args.length > 1 && isPlainObject(args[args.length - 1])) {
    config = args[args.length - 1] as PrefetchConfig;
    args = args.slice(0, -1);
  }
  const last = args[args.length - 1];
  const resultSelector = typeof last === 'function' ? (last as (...values: unknown[]) => unknown) : undefined;
  if (resultSelector !== undefined) args = args.slice(0, -1);
  const sources = (
    args.length === 1 && Array.isArray(args[0]) ? args[0] : args
  ) as ObservableInput<unknown>[];
  return { sources, resultSelector, config };
}

function isPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * RxJS's `zipAll`: collects the inner observables until the source completes (as RxJS must), then
 * zips them with sluice's {@link zip}. A drop-in with the same signatures.
 *
 * @example
 * ```ts
 * import { zipAll } from 'sluice/operators';
 * from([exec('cat', ['a.txt']), exec('cat', ['b.txt'])]).pipe(zipAll()).subscribe(render);
 * ```
 */
export function zipAll<T>(): OperatorFunction<ObservableInput<T>, T[]>;
/**
 * {@link zipAll} of a source whose inner type is not known.
 *
 * @example
 * ```ts
 * sources$.pipe(zipAll<number>()).subscribe((values) => console.log(values));
 * ```
 */
export function zipAll<T>(): OperatorFunction<any, T[]>;
/**
 * {@link zipAll}, each set of zipped values passed to `project`.
 *
 * @example
 * ```ts
 * from([a$, b$]).pipe(zipAll((a: number, b: number) => a + b)).subscribe(console.log);
 * ```
 */
export function zipAll<T, R>(project: (...values: T[]) => R): OperatorFunction<ObservableInput<T>, R>;
/**
 * {@link zipAll} of a source whose inner type is not known, each set passed to `project`.
 *
 * @example
 * ```ts
 * sources$.pipe(zipAll((...values) => values.join(' '))).subscribe(console.log);
 * ```
 */
export function zipAll<R>(project: (...values: Array<any>) => R): OperatorFunction<any, R>;
export function zipAll<R>(project?: (...values: unknown[]) => R): OperatorFunction<any, unknown> {
  const spread: OperatorFunction<unknown, unknown> =
    project === undefined
      ? identity
      : map((args: unknown) => (Array.isArray(args) ? project(...args) : project(args)));
  return (source) =>
    source.pipe(
      toArray(),
      rxMergeMap((sources: ObservableInput<unknown>[]) => zip(sources)),
      spread,
    );
}

/** RxJS's `zipWith` on sluice's {@link zip}: a drop-in with the same signature.
 *
 * @example
 * ```ts
 * import { zipWith } from 'sluice/operators';
 * exec('cat', ['names.txt']).pipe(zipWith(exec('cat', ['scores.txt']))).subscribe(render);
 * ```
 */
export function zipWith<T, A extends readonly unknown[]>(
  ...otherInputs: [...ObservableInputTuple<A>]
): OperatorFunction<T, Cons<T, A>>;
/**
 * {@link zipWith} with a {@link PrefetchConfig} last. Only a plain object that no `ObservableInput`
 * form can be is read as the config, so every RxJS call keeps its meaning.
 *
 * @example
 * ```ts
 * names$.pipe(zipWith(scores$, { prefetch: 64 })).subscribe(([name, score]) => render(name, score));
 * ```
 */
export function zipWith<T, A extends readonly unknown[]>(
  ...otherInputsAndConfig: [...ObservableInputTuple<A>, PrefetchConfig]
): OperatorFunction<T, Cons<T, A>>;
export function zipWith<T>(...args: unknown[]): OperatorFunction<T, unknown[]> {
  const last = args[args.length - 1];
  const config = isConfig(last) ? last : undefined;
  const others = (config === undefined ? args : args.slice(0, -1)) as ObservableInput<unknown>[];
  rejectUnknownOptions(config, ['prefetch']);
  readPrefetch(config);
  return operate<T, unknown[]>((source, subscriber) => {
    const inputs = [source, ...others];
    const zipped = (config === undefined ? zip(inputs) : zip(inputs, config)) as Observable<unknown[]>;
    zipped.subscribe(subscriber);
  });
}

/** A plain object that no `ObservableInput` form can be: the trailing {@link PrefetchConfig}. */
function isConfig(value: unknown): value is PrefetchConfig {
  if (!isPlainObject(value)) return false;
  const object = value as Record<PropertyKey, unknown>;
  return (
    !('length' in object) &&
    typeof object.then !== 'function' &&
    typeof object[Symbol.iterator] !== 'function' &&
    typeof object[Symbol.asyncIterator] !== 'function' &&
    typeof object[(Symbol as { observable?: symbol }).observable ?? '@@observable'] !== 'function'
  );
}
