import { type Observable, type ObservableInput, type OperatorFunction, of } from 'rxjs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  concatAll,
  concatMap,
  mergeAll,
  mergeMap,
  mergeScan,
  type PrefetchConfig,
  zip,
  zipAll,
  zipWith,
} from '../../src/operators/index.js';

// The public signatures of sluice's buffering operators: RxJS's, plus the optional PrefetchConfig.
// tsc checks this file (tsconfig includes test/); at run time it checks nothing more.

describe('signatures of the buffering operators', () => {
  it('concatMap and mergeMap infer the inner type, with or without a prefetch', () => {
    expectTypeOf(concatMap((n: number) => of(String(n)))).toEqualTypeOf<OperatorFunction<number, string>>();
    expectTypeOf(concatMap((n: number) => Promise.resolve(n), { prefetch: 4 })).toEqualTypeOf<
      OperatorFunction<number, number>
    >();
    expectTypeOf(mergeMap((n: number) => [n, n], 4)).toEqualTypeOf<OperatorFunction<number, number>>();
    expectTypeOf(mergeMap((n: number) => of(n > 1), 4, { prefetch: 8 })).toEqualTypeOf<
      OperatorFunction<number, boolean>
    >();
  });

  it("RxJS's deprecated result selectors keep their types", () => {
    expectTypeOf(
      concatMap(
        (n: number) => of(String(n)),
        (outer, inner, outerIndex, innerIndex) => ({ outer, inner, outerIndex, innerIndex }),
      ),
    ).toEqualTypeOf<
      OperatorFunction<number, { outer: number; inner: string; outerIndex: number; innerIndex: number }>
    >();
    expectTypeOf(
      mergeMap(
        (n: number) => of(n),
        (outer, inner) => outer + inner,
        2,
      ),
    ).toEqualTypeOf<OperatorFunction<number, number>>();
  });

  it('concatAll, mergeAll and mergeScan', () => {
    expectTypeOf(concatAll<Observable<string>>()).toEqualTypeOf<
      OperatorFunction<Observable<string>, string>
    >();
    expectTypeOf(mergeAll<Promise<number>>(2, { prefetch: 1 })).toEqualTypeOf<
      OperatorFunction<Promise<number>, number>
    >();
    expectTypeOf(mergeScan((acc: string, n: number) => of(acc + n), '', 1)).toEqualTypeOf<
      OperatorFunction<number, string>
    >();
  });

  it('zip keeps the tuple, with a selector, and takes a prefetch in the array form; zipWith takes one last', () => {
    expectTypeOf(zip(of(1), of('a'))).toEqualTypeOf<Observable<[number, string]>>();
    expectTypeOf(zip([of(1), of('a')], { prefetch: 4 })).toEqualTypeOf<Observable<[number, string]>>();
    expectTypeOf(zip(of(1), of('a'), (n, s) => `${n}${s}`)).toEqualTypeOf<Observable<string>>();
    expectTypeOf(zip([of(1), of(true)], (n, b) => (b ? n : 0), { prefetch: 2 })).toEqualTypeOf<
      Observable<number>
    >();
    expectTypeOf(of(1).pipe(zipWith(of('a'), of(true)))).toEqualTypeOf<
      Observable<[number, string, boolean]>
    >();
    expectTypeOf(of(1).pipe(zipWith(of('a'), of(true), { prefetch: 4 }))).toEqualTypeOf<
      Observable<[number, string, boolean]>
    >();
    expectTypeOf(zipAll<number>()).toEqualTypeOf<OperatorFunction<ObservableInput<number>, number[]>>();
  });

  it('a prefetch is a PrefetchConfig', () => {
    expectTypeOf<PrefetchConfig>().toEqualTypeOf<{ readonly prefetch?: number }>();
    expect(() =>
      // @ts-expect-error: a prefetch is a number
      concatMap((n: number) => of(n), { prefetch: '16' }),
    ).toThrow('Expected the `prefetch` option to be a positive integer');
  });
});
