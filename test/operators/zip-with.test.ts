import { map, of, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { zipWith } from '../../src/operators/zip-with.js';
import { exec } from '../../src/sources/exec.js';
import { letter, synchronousSource } from '../support/operator-marbles.js';
import { newTestScheduler } from '../support/test-scheduler.js';

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
