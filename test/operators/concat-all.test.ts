import { map, of, take, timer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { concatAll } from '../../src/operators/concat-all.js';
import { exec } from '../../src/sources/exec.js';
import { letter, synchronousSource } from '../support/operator-marbles.js';
import { newTestScheduler } from '../support/test-scheduler.js';

describe("sluice's concatAll() as RxJS's", () => {
  it('subscribes the inner observables one after the other', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const x = cold('     --a--b|           ');
      const xsubs = '      -^-----!           ';
      const y = cold('            --c--d|    ');
      const ysubs = '      -------^-----!     ';
      const e1 = hot('     -x--y----|         ', { x, y });
      const e1subs = '     ^--------!         ';
      const expected = '   ---a--b--c--d|     ';
      expectObservable(e1.pipe(concatAll())).toBe(expected);
      expectSubscriptions(x.subscriptions).toBe(xsubs);
      expectSubscriptions(y.subscriptions).toBe(ysubs);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('stops listening to a synchronous source when unsubscribed', () => {
    const sideEffects: number[] = [];
    const synchronous = synchronousSource(sideEffects, (index) => of(index));
    synchronous.pipe(concatAll(), take(3)).subscribe(() => {});
    expect(sideEffects).toEqual([0, 1, 2]);
  });
});

describe("sluice's concatAll(): the pause reaches the process", () => {
  it('with no demanding consumer, paused while 1 + prefetch inner observables are held', () => {
    newTestScheduler().run(({ expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e-f|' });
      const worked = exec('make', [], { port: fake }).pipe(
        map((event) => timer(6).pipe(map(() => letter(event)))),
        concatAll({ prefetch: 1 }),
      );
      expectObservable(worked).toBe('-------a-----b-----c-----d-----e-----f-----(x|)');
      flush();
      expect(fake.pauses.slice(0, 3)).toEqual([3, 7, 13]);
      expect(fake.resumes.slice(0, 2)).toEqual([7, 13]);
    });
  });
});
