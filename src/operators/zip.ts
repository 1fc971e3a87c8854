import { Observable, type ObservableInput, type ObservableInputTuple, zip as rxZip } from 'rxjs';
import { createOperatorSubscriber } from '../core/operate.js';
import { countedSource } from './counted-source.js';
import type { HeldDemand } from './held-demand.js';
import { type PrefetchConfig, readPrefetch } from './prefetch-config.js';

/**
 * RxJS's `zip`, pausing each source that gets ahead: a drop-in with the same signatures — plus,
 * in the array form, an optional {@link PrefetchConfig} last — and RxJS's own `zip` doing the
 * zipping, so values, order, errors, completion and subscriptions are RxJS's.
 *
 * RxJS's `zip` keeps one private buffer per source, and a source that runs ahead of the others
 * fills its buffer without limit. Here each source is paused while `prefetch` of its values
 * (default 16) wait for a partner, until it is down to half, **or** while the consumer below is
 * paused. See docs/backpressure.md, "Operators that hold values".
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
    const helds: Array<HeldDemand | undefined> = [];
    const counted = sources.map((source, index) =>
      countedSource(source, prefetch, (held) => {
        helds[index] = held;
      }),
    );
    const zipped = resultSelector === undefined ? rxZip(counted) : rxZip(counted, resultSelector);
    // A tuple gives back one value of each source once it has been handed on: a source resumed
    // by it (and pushing at once) zips its next tuple after this one, never inside it.
    const upstream = createOperatorSubscriber<unknown>(subscriber, (tuple) => {
      subscriber.next(tuple);
      for (const held of helds) held?.take();
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
