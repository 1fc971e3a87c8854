import { map, of, take, timer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { mergeScan } from '../../src/operators/merge-scan.js';
import { type ExecEvent, exec } from '../../src/sources/exec.js';
import { letter, synchronousSource } from '../support/operator-marbles.js';
import { newTestScheduler } from '../support/test-scheduler.js';

describe("sluice's mergeScan() as RxJS's", () => {
  it('accumulates through inner observables, each seeing the last value emitted', () => {
    newTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const e1 = hot('   --a--b--c--|');
      const e1subs = '   ^----------!';
      const expected = ' --x--y--z--|';
      const values = { x: ['a'], y: ['a', 'b'], z: ['a', 'b', 'c'] };
      const scanned = e1.pipe(mergeScan((acc: string[], value: string) => of([...acc, value]), []));
      expectObservable(scanned).toBe(expected, values);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('stops listening to a synchronous source when unsubscribed', () => {
    const sideEffects: number[] = [];
    const synchronous = synchronousSource(sideEffects);
    synchronous
      .pipe(
        mergeScan((acc, value) => of(acc + value), 0),
        take(3),
      )
      .subscribe(() => {});
    expect(sideEffects).toEqual([0, 1, 2]);
  });
});

describe("sluice's mergeScan(): the pause reaches the process", () => {
  it('with no demanding consumer, paused while concurrent + prefetch values are held', () => {
    newTestScheduler().run(({ expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c|' });
      const scanned = exec('make', [], { port: fake }).pipe(
        mergeScan((acc: string, event: ExecEvent) => timer(6).pipe(map(() => acc + letter(event))), '', 1, {
          prefetch: 1,
        }),
      );
      expectObservable(scanned).toBe('-------a-----b-----c-----(x|)', {
        a: 'a',
        b: 'ab',
        c: 'abc',
        x: 'abcx',
      });
      flush();
      expect(fake.pauses.slice(0, 3)).toEqual([3, 7, 13]);
      expect(fake.resumes.slice(0, 2)).toEqual([7, 13]);
    });
  });
});
