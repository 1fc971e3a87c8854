import { filter, map, type Observable, of, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { PrefetchConfig } from '../../src/operators/prefetch.js';
import { share } from '../../src/operators/share.js';
import { zip, zipAll, zipWith } from '../../src/operators/zip.js';
import { exec } from '../../src/sources/exec.js';
import { withDemand } from '../../src/testing/index.js';
import { letter, synchronousSource } from '../support/operator-marbles.js';
import { newTestScheduler } from '../support/test-scheduler.js';

describe("sluice's zip() as RxJS's", () => {
  it('pairs the n-th values of its sources and completes when a finished source has nothing left', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const a = hot('    ---1---2---3---|');
      const asubs = '    ^----------!    ';
      const b = cold('   --4--5--6|      ');
      const bsubs = '    ^--------!      ';
      const expected = ' ---x---y---(z|) ';
      const values = { x: ['1', '4'], y: ['2', '5'], z: ['3', '6'] };
      expectObservable(zip(a, b)).toBe(expected, values);
      expectSubscriptions(a.subscriptions).toBe(asubs);
      expectSubscriptions(b.subscriptions).toBe(bsubs);
    });
  });

  it('applies a result selector, in the spread and the array form', () => {
    newTestScheduler().run(({ cold, expectObservable }) => {
      const a = cold('   -1-2|');
      const b = cold('   --3-4|');
      expectObservable(zip(a, b, (x, y) => Number(x) + Number(y))).toBe(' --x-(y|)', { x: 4, y: 6 });
      expectObservable(zip([a, b], (x, y) => x + y)).toBe(' --x-(y|)', { x: '13', y: '24' });
    });
  });

  it('raises the first error and unsubscribes every source', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const a = hot('    --1--#');
      const asubs = '    ^----!';
      const b = cold('   -----2|');
      const bsubs = '    ^----!';
      expectObservable(zip(a, b)).toBe(' -----#');
      expectSubscriptions(a.subscriptions).toBe(asubs);
      expectSubscriptions(b.subscriptions).toBe(bsubs);
    });
  });

  it('completes at once with no source', () => {
    newTestScheduler().run(({ expectObservable }) => {
      expectObservable(zip([])).toBe('|');
    });
  });

  it('stops listening to a synchronous source when unsubscribed', () => {
    const sideEffects: number[] = [];
    const synchronous = synchronousSource(sideEffects);
    zip(synchronous, of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9))
      .pipe(take(3))
      .subscribe(() => {});
    // RxJS's zip holds all ten (its second source is subscribed after the first ran to its end);
    // the first source was never unsubscribed early, so it ran ten times there too.
    expect(sideEffects).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const zipped: number[][] = [];
    zip(of(0, 1, 2, 3, 4, 5), synchronous)
      .pipe(take(3))
      .subscribe((pair) => zipped.push(pair));
    expect(zipped).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
    expect(sideEffects.slice(10)).toEqual([0, 1, 2]);
  });

  it('refuses a bad prefetch, naming the option', () => {
    expect(() => zip([of(1), of(2)], { prefetch: -1 })).toThrow(
      'Expected the `prefetch` option to be a positive integer, got `-1` (number)',
    );
  });
});

describe("sluice's zip(): the pause reaches the process that is ahead", () => {
  it('with no demanding consumer, a process ahead by prefetch values is paused until its partner catches up', () => {
    newTestScheduler().run(({ cold, expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e-f|' });
      const fast = exec('make', [], { port: fake }).pipe(map(letter));
      const slow = cold('               ---------1---------2---------3|');
      const expected = '                ---------x---------y---------z(|)';
      const values = { x: ['a', '1'], y: ['b', '2'], z: ['c', '3'] };
      expectObservable(zip([fast, slow], { prefetch: 2 })).toBe(expected, values);
      flush();
      // a and b wait from 3: paused. Each pair takes one and leaves 1 (half of 2): resumed, refilled.
      expect(fake.pauses).toEqual([3, 9, 19, 29]);
      expect(fake.resumes).toEqual([9, 19, 29]);
      expect(fake.kills.map(({ at }) => at)).toEqual([30]);
    });
  });

  it('combined with the consumer: paused while the consumer is', () => {
    newTestScheduler().run(({ cold, demand, expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e-f|' });
      const consumer = demand('           ---p-----r');
      const fast = exec('make', [], { port: fake }).pipe(map(letter));
      const other = cold('               -1-2-3-4-5-6-7|');
      const expected = '                 -u-------v-w-x-y-z(q|)';
      const values = {
        u: ['a', '1'],
        v: ['b', '2'],
        w: ['c', '3'],
        x: ['d', '4'],
        y: ['e', '5'],
        z: ['f', '6'],
        q: ['x', '7'],
      };
      expectObservable(withDemand(consumer, zip(fast, other))).toBe(expected, values);
      flush();
      expect(fake.pauses).toEqual([3]);
      expect(fake.resumes).toEqual([9]);
    });
  });

  it("a producer shared by two of its sources: the bound can stall it, and prefetch: Infinity is RxJS's unbounded zip", () => {
    newTestScheduler().run(({ expectObservable, fakeExec, flush }) => {
      const bounded = fakeExec({ stdout: '-a-b-c-d-e-f|' });
      const unbounded = fakeExec({ stdout: '-a-b-c-d-e-f|' });
      const firstAndAll = (shared: Observable<string>, config: PrefetchConfig) =>
        zip([shared.pipe(filter((line) => line === 'a')), shared], config);
      const run = (fake: typeof bounded) => exec('make', [], { port: fake }).pipe(map(letter), share());
      const values = { u: ['a', 'a'] };
      // b and c wait for a partner that only the end of the run can bring: paused for good.
      expectObservable(firstAndAll(run(bounded), { prefetch: 2 })).toBe('-u', values);
      expectObservable(firstAndAll(run(unbounded), { prefetch: Number.POSITIVE_INFINITY })).toBe(
        '-u----------|',
        values,
      );
      flush();
      expect(bounded.pauses).toEqual([5]);
      expect(unbounded.pauses).toEqual([]);
    });
  });
});

describe("sluice's zipAll() as RxJS's", () => {
  it('collects the inner observables until the source completes, then zips them', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const x = cold('         --a---b|  ');
      const xsubs = '      ----^-----!   ';
      const y = cold('         -c--d|    ');
      const ysubs = '      ----^----!    ';
      const e1 = hot('     -x-y|         ', { x, y });
      const expected = '   ------u---(v|)';
      expectObservable(e1.pipe(zipAll())).toBe(expected, { u: ['a', 'c'], v: ['b', 'd'] });
      expectSubscriptions(x.subscriptions).toBe(xsubs);
      expectSubscriptions(y.subscriptions).toBe(ysubs);
    });
  });

  it('applies a project function to each zipped set', () => {
    newTestScheduler().run(({ cold, expectObservable }) => {
      const sources = cold('(xy|)', { x: cold('-1-2|'), y: cold('--3-4|') });
      expectObservable(sources.pipe(zipAll((a: string, b: string) => a + b))).toBe('--u-(v|)', {
        u: '13',
        v: '24',
      });
    });
  });

  it('stops listening to a synchronous inner source when unsubscribed', () => {
    const sideEffects: number[] = [];
    const synchronous = synchronousSource(sideEffects);
    of(of(0, 1, 2, 3, 4, 5), synchronous)
      .pipe(zipAll(), take(3))
      .subscribe(() => {});
    expect(sideEffects).toEqual([0, 1, 2]);
  });
});

describe("sluice's zipAll(): the pause reaches the inner process that is ahead", () => {
  it('with no demanding consumer, an inner source ahead by 16 values is paused', () => {
    newTestScheduler().run(({ cold, expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t|' });
      const partner = cold(`${'-'.repeat(49)}1|`);
      const zipped = of(exec('make', [], { port: fake }).pipe(map(letter)), partner).pipe(zipAll());
      expectObservable(zipped).toBe(`${'-'.repeat(49)}a|`, { a: ['a', '1'] });
      flush();
      expect(fake.pauses).toEqual([31]);
      expect(fake.kills.map(({ at }) => at)).toEqual([50]);
    });
  });
});

describe("sluice's zipWith() as RxJS's", () => {
  it('pairs the source with the others, value by value', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const a = hot('    ---1---2---3---|');
      const asubs = '    ^----------!    ';
      const b = cold('   --4--5--6|      ');
      const bsubs = '    ^--------!      ';
      const expected = ' ---x---y---(z|) ';
      const values = { x: ['1', '4'], y: ['2', '5'], z: ['3', '6'] };
      expectObservable(a.pipe(zipWith(b))).toBe(expected, values);
      expectSubscriptions(a.subscriptions).toBe(asubs);
      expectSubscriptions(b.subscriptions).toBe(bsubs);
    });
  });

  it('stops listening to a synchronous source when unsubscribed', () => {
    const sideEffects: number[] = [];
    const synchronous = synchronousSource(sideEffects);
    of(0, 1, 2, 3, 4, 5)
      .pipe(zipWith(synchronous), take(3))
      .subscribe(() => {});
    expect(sideEffects).toEqual([0, 1, 2]);
  });
});

describe("sluice's zipWith(): the pause reaches the process that is ahead", () => {
  it('with no demanding consumer, the source ahead by 16 values is paused', () => {
    newTestScheduler().run(({ cold, expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t|' });
      const partner = cold(`${'-'.repeat(49)}1|`);
      const zipped = exec('make', [], { port: fake }).pipe(map(letter), zipWith(partner));
      expectObservable(zipped).toBe(`${'-'.repeat(49)}a|`, { a: ['a', '1'] });
      flush();
      // The 16th line (p) arrives at 31: paused until the end (50) kills the process.
      expect(fake.pauses).toEqual([31]);
      expect(fake.kills.map(({ at }) => at)).toEqual([50]);
    });
  });
});

describe("sluice's zipWith(…, { prefetch })", () => {
  it('pauses the source that is ahead by prefetch values until its partner catches up', () => {
    newTestScheduler().run(({ cold, expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e-f|' });
      const slow = cold('               ---------1---------2---------3|');
      const expected = '                ---------x---------y---------z(|)';
      const values = { x: ['a', '1'], y: ['b', '2'], z: ['c', '3'] };
      const zipped = exec('make', [], { port: fake }).pipe(map(letter), zipWith(slow, { prefetch: 2 }));
      expectObservable(zipped).toBe(expected, values);
      flush();
      // As zip([fast, slow], { prefetch: 2 }): a and b wait from 3, then one is taken per pair.
      expect(fake.pauses).toEqual([3, 9, 19, 29]);
      expect(fake.resumes).toEqual([9, 19, 29]);
      expect(fake.kills.map(({ at }) => at)).toEqual([30]);
    });
  });

  it('refuses a bad or misspelt option, naming it, before anything is subscribed', () => {
    expect(() => zipWith(of(1), { prefetch: 0 })).toThrow(
      'Expected the `prefetch` option to be a positive integer, got `0` (number)',
    );
    expect(() => zipWith(of(1), { prefech: 4 } as never)).toThrow(
      new TypeError('Unknown `prefech` option (known options: prefetch)'),
    );
  });

  it('still reads a trailing array-like, promise or iterable as a source, as RxJS does', async () => {
    const arrayLike = { length: 2, 0: 'a', 1: 'b' };
    const pairs = of(1, 2).pipe(zipWith(arrayLike, Promise.resolve(true)), toArray());
    expect(await new Promise((resolve) => pairs.subscribe(resolve))).toEqual([[1, 'a', true]]);
  });
});
