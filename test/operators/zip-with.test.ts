import { map, of, take } from 'rxjs';
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
