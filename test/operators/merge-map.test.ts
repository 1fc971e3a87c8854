import { map, of, concatMap as rxConcatMap, mergeMap as rxMergeMap, take, timer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { concatAll, concatMap, mergeAll, mergeMap } from '../../src/operators/merge-map.js';
import { type ExecEvent, exec } from '../../src/sources/exec.js';
import { withDemand } from '../../src/testing/index.js';
import { letter, synchronousSource } from '../support/operator-marbles.js';
import { newTestScheduler } from '../support/test-scheduler.js';

/** Six frames of work on an event, then its letter. */
const work6 = (event: ExecEvent) => timer(6).pipe(map(() => letter(event)));

describe("sluice's mergeMap() as RxJS's", () => {
  it('merges the inner observables, at most `concurrent` at a time, in arrival order', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const e1 = hot('   -a-b-c-|         ');
      const e1subs = '   ^------!         ';
      const inner = cold(' --x--y|         ');
      const innersubs = [
        '                -^-----!         ',
        '                ---^-----!       ',
        '                -------^-----!   ',
      ];
      const expected = ' ---x-xy-yx--y|   ';
      expectObservable(e1.pipe(mergeMap(() => inner, 2))).toBe(expected);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
      expectSubscriptions(inner.subscriptions).toBe(innersubs);
    });
  });

  it('raises an inner error, unsubscribing the source and the other inner observables', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const e1 = hot('   -a-b---|');
      const e1subs = '   ^----!  ';
      const a = cold('    ------x|');
      const asubs = '    -^---!  ';
      const b = cold('      --#  ');
      const expected = ' -----#  ';
      expectObservable(e1.pipe(mergeMap((key) => (key === 'a' ? a : b)))).toBe(expected);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
      expectSubscriptions(a.subscriptions).toBe(asubs);
    });
  });

  it("keeps RxJS's deprecated result selector and concurrency as the third argument", () => {
    newTestScheduler().run(({ cold, hot, expectObservable }) => {
      const e1 = hot('   -a-b----|');
      const inner = cold(' --x|    ');
      const expected = ' ---A--B-|';
      expectObservable(
        e1.pipe(
          mergeMap(
            () => inner,
            (outer) => outer.toUpperCase(),
            1,
          ),
        ),
      ).toBe(expected, {
        A: 'A',
        B: 'B',
      });
      expectObservable(e1.pipe(mergeMap(() => inner, undefined, 1))).toBe(' ---x--x-|');
    });
  });

  it('stops listening to a synchronous source when unsubscribed', () => {
    const sideEffects: number[] = [];
    const synchronous = synchronousSource(sideEffects);
    synchronous
      .pipe(
        mergeMap((value) => of(value)),
        take(3),
      )
      .subscribe(() => {});
    expect(sideEffects).toEqual([0, 1, 2]);
  });

  it('refuses a bad prefetch, naming the option', () => {
    expect(() => mergeMap(() => of(1), 2, { prefetch: 1.5 })).toThrow(
      'Expected the `prefetch` option to be a positive integer, got `1.5` (number)',
    );
  });
});

describe("sluice's mergeMap(): the pause reaches the process", () => {
  it('with no demanding consumer, paused while concurrent + prefetch values are held, resumed at half', () => {
    newTestScheduler().run(({ expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e-f|' });
      const worked = exec('make', [], { port: fake }).pipe(mergeMap(work6, 2, { prefetch: 1 }));
      expectObservable(worked).toBe('-------a-b---c-d---e-f---(x|)');
      flush();
      // a and b run from 1 and 3; c waits from 5: 3 held, paused. a's end (7) leaves 2, b's (9)
      // leaves 1, half of 3: resumed, and d comes in at once.
      expect(fake.pauses.slice(0, 2)).toEqual([5, 11]);
      expect(fake.resumes.slice(0, 2)).toEqual([9, 15]);
    });
  });

  it('with unbounded concurrency, paused while prefetch inner observables run', () => {
    newTestScheduler().run(({ expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e-f|' });
      const worked = exec('make', [], { port: fake }).pipe(mergeMap(work6, undefined, { prefetch: 2 }));
      expectObservable(worked).toBe('-------a-b---c-d---e-f---(x|)');
      flush();
      // a and b run from 1 and 3: 2 running, paused. a's end (7) lets c in, which fills it again.
      expect(fake.pauses.slice(0, 3)).toEqual([3, 7, 9]);
      expect(fake.resumes.slice(0, 2)).toEqual([7, 9]);
    });
  });

  it('combined with the consumer: paused while the consumer is, though the operator has room', () => {
    newTestScheduler().run(({ demand, expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d|' });
      const consumer = demand('   --p-------r');
      const worked = exec('make', [], { port: fake }).pipe(mergeMap(work6, 4));
      expectObservable(withDemand(consumer, worked)).toBe('-------a--------b-c-d(x|)');
      flush();
      // b stays in the child's pipe from the consumer's pause (2) to its resume (10).
      expect(fake.pauses).toEqual([2]);
      expect(fake.resumes).toEqual([10]);
    });
  });

  it("RxJS's mergeMap with the same pipeline: the process is never paused", () => {
    newTestScheduler().run(({ expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e-f|' });
      const worked = exec('make', [], { port: fake }).pipe(rxMergeMap(work6, 2));
      expectObservable(worked).toBe('-------a-b---c-d---e-f---(x|)');
      flush();
      expect(fake.pauses).toEqual([]);
    });
  });
});

describe("sluice's mergeAll() as RxJS's", () => {
  it('merges at most `concurrent` inner observables at a time', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const x = cold('     --a--b|           ');
      const xsubs = '      -^-----!           ';
      const y = cold('       --c--d|         ');
      const ysubs = '      -------^-----!     ';
      const e1 = hot('     -x-y------|        ', { x, y });
      const e1subs = '     ^---------!        ';
      const expected = '   ---a--b--c--d|     ';
      expectObservable(e1.pipe(mergeAll(1))).toBe(expected);
      expectSubscriptions(x.subscriptions).toBe(xsubs);
      expectSubscriptions(y.subscriptions).toBe(ysubs);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('stops listening to a synchronous source when unsubscribed', () => {
    const sideEffects: number[] = [];
    const synchronous = synchronousSource(sideEffects, (index) => of(index));
    synchronous.pipe(mergeAll(), take(3)).subscribe(() => {});
    expect(sideEffects).toEqual([0, 1, 2]);
  });
});

describe("sluice's mergeAll(): the pause reaches the process", () => {
  it('with no demanding consumer, paused while concurrent + prefetch inner observables are held', () => {
    newTestScheduler().run(({ expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e-f|' });
      const worked = exec('make', [], { port: fake }).pipe(
        map((event) => timer(6).pipe(map(() => letter(event)))),
        mergeAll(2, { prefetch: 1 }),
      );
      expectObservable(worked).toBe('-------a-b---c-d---e-f---(x|)');
      flush();
      expect(fake.pauses.slice(0, 2)).toEqual([5, 11]);
      expect(fake.resumes.slice(0, 2)).toEqual([9, 15]);
    });
  });
});

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

/** Four frames of work on an event, then its letter. */
const work4 = (event: ExecEvent) => timer(4).pipe(map(() => letter(event)));

describe("sluice's concatMap() as RxJS's", () => {
  it('maps each value to an inner observable and concatenates them, subscribing one at a time', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const e1 = hot('   --1-----3--5-------|');
      const e1subs = '   ^------------------!';
      const inner = cold('x-x-x|              ', { x: 10 });
      const innersubs = [
        '                --^----!            ',
        '                --------^----!      ',
        '                -------------^----!  ',
      ];
      const expected = ' --x-x-x-y-y-yz-z-z-|';
      const values = { x: 10, y: 30, z: 50 };
      expectObservable(e1.pipe(concatMap((n) => inner.pipe(map((x) => x * Number(n)))))).toBe(
        expected,
        values,
      );
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
      expectSubscriptions(inner.subscriptions).toBe(innersubs);
    });
  });

  it('raises an inner error, unsubscribing the source', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const e1 = hot('   --1-----3--|');
      const e1subs = '   ^---!       ';
      const inner = cold('  x-#       ');
      const expected = ' --x-#       ';
      expectObservable(e1.pipe(concatMap(() => inner))).toBe(expected);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('sends what the project function throws as the error', () => {
    newTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const e1 = hot('   --1--2--|');
      const e1subs = '   ^----!   ';
      const expected = ' --a--#   ';
      const project = (n: string) => {
        if (n === '2') throw 'too far';
        return of('a');
      };
      expectObservable(e1.pipe(concatMap(project))).toBe(expected, undefined, 'too far');
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('completes once the source completed and the last inner observable did', () => {
    newTestScheduler().run(({ cold, hot, expectObservable }) => {
      const e1 = hot('   -a-b|       ');
      const inner = cold(' --x|      ');
      const expected = ' ---x--x|    ';
      expectObservable(e1.pipe(concatMap(() => inner))).toBe(expected);
    });
  });

  it("keeps RxJS's deprecated result selector", () => {
    newTestScheduler().run(({ cold, hot, expectObservable }) => {
      const e1 = hot('   -a--b|  ');
      const inner = cold(' x|    ');
      const expected = ' -A--B|  ';
      const result = e1.pipe(
        concatMap(
          () => inner,
          (outer) => outer.toUpperCase(),
        ),
      );
      expectObservable(result).toBe(expected, { A: 'A', B: 'B' });
    });
  });

  it('stops listening to a synchronous source when unsubscribed', () => {
    const sideEffects: number[] = [];
    const synchronous = synchronousSource(sideEffects);
    synchronous
      .pipe(
        concatMap((value) => of(value)),
        take(3),
      )
      .subscribe(() => {});
    expect(sideEffects).toEqual([0, 1, 2]);
  });

  it('refuses a bad prefetch before anything is subscribed, naming the option', () => {
    expect(() => concatMap(() => of(1), { prefetch: 0 })).toThrow(
      'Expected the `prefetch` option to be a positive integer, got `0` (number)',
    );
  });
});

describe("sluice's concatMap(): the pause reaches the process", () => {
  it('with no demanding consumer, the process is paused while 1 + prefetch values are held', () => {
    newTestScheduler().run(({ expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e-f|' });
      const worked = exec('make', [], { port: fake }).pipe(concatMap(work4, { prefetch: 1 }));
      expectObservable(worked).toBe('-----a---b---c---d---e---f---(x|)');
      flush();
      // a is worked on from 1 and b waits from 3: 2 held, paused. Each end of a work lets one in.
      expect(fake.pauses.slice(0, 5)).toEqual([3, 5, 9, 13, 17]);
      expect(fake.resumes.slice(0, 5)).toEqual([5, 9, 13, 17, 21]);
    });
  });

  it('combined with the consumer: paused while the consumer is, though the operator has room', () => {
    newTestScheduler().run(({ demand, expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d|' });
      const consumer = demand('   ---p-----r');
      const worked = exec('make', [], { port: fake }).pipe(concatMap(work4));
      expectObservable(withDemand(consumer, worked)).toBe('-----a-------b---c---d---(x|)');
      flush();
      expect(fake.pauses).toEqual([3]);
      expect(fake.resumes).toEqual([9]);
    });
  });

  it("RxJS's concatMap with the same pipeline: the process is never paused (why sluice's is needed)", () => {
    newTestScheduler().run(({ expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e-f|' });
      const worked = exec('make', [], { port: fake }).pipe(rxConcatMap(work4));
      expectObservable(worked).toBe('-----a---b---c---d---e---f---(x|)');
      flush();
      expect(fake.pauses).toEqual([]);
    });
  });
});
