import { map, of, concatMap as rxConcatMap, take, timer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { concatMap } from '../../src/operators/concat-map.js';
import { type ExecEvent, exec } from '../../src/sources/exec.js';
import { withDemand } from '../../src/testing/index.js';
import { letter, synchronousSource } from '../support/operator-marbles.js';
import { newTestScheduler } from '../support/test-scheduler.js';

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
