import {
  identity,
  map,
  type ObservableInput,
  type OperatorFunction,
  mergeMap as rxMergeMap,
  toArray,
} from 'rxjs';
import { zip } from './zip.js';

/**
 * RxJS's `zipAll`: collects the inner observables until the source completes, then zips them with
 * sluice's {@link zip}, so an inner observable that gets ahead of the others is paused once 16 of
 * its values wait. The collected inner observables themselves cannot be bounded — none is
 * subscribed before the source completes — but they are observables, not their values. A drop-in
 * with the same signatures.
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
