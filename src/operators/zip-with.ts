import type { Cons, Observable, ObservableInput, ObservableInputTuple, OperatorFunction } from 'rxjs';
import { operate } from '../core/operate.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { type PrefetchConfig, readPrefetch } from './prefetch-config.js';
import { zip } from './zip.js';

/**
 * RxJS's `zipWith`: the source zipped with `otherInputs`, each paused while it is ahead of the
 * others by 16 values (sluice's {@link zip}). A drop-in with the same signature.
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
 * {@link zipWith} with a {@link PrefetchConfig} last: each source is paused while `prefetch` of
 * its values wait for a partner (default 16), as `zip([source, ...others], { prefetch })` does.
 * A plain object that is not an `ObservableInput` (no `length`, `then`, iterator or
 * `Symbol.observable`) is read as the config, so every RxJS call keeps its meaning.
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
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const object = value as Record<PropertyKey, unknown>;
  return (
    !('length' in object) &&
    typeof object.then !== 'function' &&
    typeof object[Symbol.iterator] !== 'function' &&
    typeof object[Symbol.asyncIterator] !== 'function' &&
    typeof object[(Symbol as { observable?: symbol }).observable ?? '@@observable'] !== 'function'
  );
}
