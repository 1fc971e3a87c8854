import { map, of, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { zipAll } from '../../src/operators/zip-all.js';
import { exec } from '../../src/sources/exec.js';
import { letter, synchronousSource } from '../support/operator-marbles.js';
import { newTestScheduler } from '../support/test-scheduler.js';

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
