import type { Cons, Observable, ObservableInputTuple, OperatorFunction } from 'rxjs';
import { operate } from '../core/operate.js';
import { zip } from './zip.js';

/**
 * RxJS's `zipWith`: the source zipped with `otherInputs`, each paused while it is ahead of the
 * others by 16 values (sluice's {@link zip}; `zip([source, ...others], { prefetch })` sets
 * another bound). A drop-in with the same signature.
 *
 * @example
 * ```ts
 * import { zipWith } from 'sluice/operators';
 * exec('cat', ['names.txt']).pipe(zipWith(exec('cat', ['scores.txt']))).subscribe(render);
 * ```
 */
export function zipWith<T, A extends readonly unknown[]>(
  ...otherInputs: [...ObservableInputTuple<A>]
): OperatorFunction<T, Cons<T, A>> {
  return operate<T, Cons<T, A>>((source, subscriber) => {
    const zipped = zip([source, ...otherInputs] as never) as unknown as Observable<Cons<T, A>>;
    zipped.subscribe(subscriber);
  });
}
