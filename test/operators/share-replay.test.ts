import {
  concatMap,
  type MonoTypeOperatorFunction,
  map,
  mergeMap,
  Observable,
  shareReplay as rxShareReplay,
  type SchedulerLike,
  type ShareReplayConfig,
  take,
} from 'rxjs';
import { describe, expect, it } from 'vitest';
import { shareReplay } from '../../src/operators/share-replay.js';
import { type ExecEvent, exec } from '../../src/sources/exec.js';
import { withDemand } from '../../src/testing/index.js';
import { newTestScheduler } from '../support/test-scheduler.js';

const letter = (event: ExecEvent): string => (event.kind === 'exit' ? 'x' : event.content.trimEnd());

type ShareReplay = {
  <T>(config: ShareReplayConfig): MonoTypeOperatorFunction<T>;
  <T>(bufferSize?: number, windowTime?: number, scheduler?: SchedulerLike): MonoTypeOperatorFunction<T>;
};

const implementations: [string, ShareReplay][] = [
  ['RxJS', rxShareReplay],
  ['sluice', shareReplay],
];

// The same specs, with the same marbles, for RxJS's shareReplay() and sluice's.
describe.each(implementations)('%s shareReplay() with plain subscribers', (_name, shareReplayOperator) => {
  it('replays the last `bufferSize` values to a late consumer; the source is subscribed once', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = cold('     -1-2-3------4-|');
      const sourceSubs = '      ^-------------!';
      const shared = source.pipe(shareReplayOperator(2));
      const expected1 = '       -1-2-3------4-|';
      const subscriber2 = hot(' -------b|').pipe(mergeMap(() => shared));
      const expected2 = '       -------(23)-4-|';
      expectObservable(shared).toBe(expected1);
      expectObservable(subscriber2).toBe(expected2);
      expectSubscriptions(source.subscriptions).toBe(sourceSubs);
    });
  });

  it('without refCount keeps the source subscribed after every consumer left', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = cold('     -1-2-3-4-5-6-|');
      const sourceSubs = '      ^------------!';
      const shared = source.pipe(shareReplayOperator({ bufferSize: 1, refCount: false }));
      const unsub1 = '          ---!';
      const expected1 = '       -1-';
      const subscriber2 = hot(' ------b|').pipe(mergeMap(() => shared));
      const expected2 = '       ------34-5-6-|';
      expectObservable(shared, unsub1).toBe(expected1);
      expectObservable(subscriber2).toBe(expected2);
      expectSubscriptions(source.subscriptions).toBe(sourceSubs);
    });
  });

  it('with refCount: true unsubscribes when the last consumer leaves and starts afresh for the next', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = cold('     -1-2-3-|');
      const sourceSubs = ['     ^--!', '      ------^------!'];
      const shared = source.pipe(shareReplayOperator({ bufferSize: 1, refCount: true }));
      const unsub1 = '          ---!';
      const expected1 = '       -1-';
      const subscriber2 = hot(' ------b|').pipe(mergeMap(() => shared));
      const expected2 = '       -------1-2-3-|';
      expectObservable(shared, unsub1).toBe(expected1);
      expectObservable(subscriber2).toBe(expected2);
      expectSubscriptions(source.subscriptions).toBe(sourceSubs);
    });
  });

  it('after the source completed, replays and completes a late consumer without subscribing again', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = cold('     -1-2-3-|');
      const sourceSubs = '      ^------!';
      const shared = source.pipe(shareReplayOperator(2));
      const subscriber2 = hot(' ----------(b|)').pipe(mergeMap(() => shared));
      const expected2 = '       ----------(23|)';
      expectObservable(shared).toBe('-1-2-3-|');
      expectObservable(subscriber2).toBe(expected2);
      expectSubscriptions(source.subscriptions).toBe(sourceSubs);
    });
  });

  it('after an error, a late consumer subscribes the source again', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = cold('     -1-2-#');
      const sourceSubs = ['     ^----!', '      -------^----!'];
      const shared = source.pipe(shareReplayOperator(2));
      const subscriber2 = hot(' -------b|').pipe(mergeMap(() => shared));
      const expected2 = '       --------1-2-#';
      expectObservable(shared).toBe('-1-2-#');
      expectObservable(subscriber2).toBe(expected2);
      expectSubscriptions(source.subscriptions).toBe(sourceSubs);
    });
  });

  it('replays only the values within `windowTime` (on the given scheduler)', () => {
    const testScheduler = newTestScheduler();
    testScheduler.run(({ cold, hot, expectObservable }) => {
      const source = cold('     -1-2-3------|');
      const shared = source.pipe(
        shareReplayOperator({ bufferSize: 10, windowTime: 4, refCount: false, scheduler: testScheduler }),
      );
      const subscriber2 = hot(' -------b|').pipe(mergeMap(() => shared));
      const expected2 = '       -------3----|'; // 2 (at 3) is 4 frames old at 7: expired
      expectObservable(shared).toBe('-1-2-3------|');
      expectObservable(subscriber2).toBe(expected2);
    });
  });

  it('with refCount: true stops listening to a synchronous source when unsubscribed', () => {
    const sideEffects: number[] = [];
    const synchronous = new Observable<number>((subscriber) => {
      for (let index = 0; !subscriber.closed && index < 10; index += 1) {
        sideEffects.push(index);
        subscriber.next(index);
      }
    });
    synchronous.pipe(shareReplayOperator({ refCount: true }), take(3)).subscribe(() => {});
    expect(sideEffects).toEqual([0, 1, 2]);
  });

  it('without refCount lets a synchronous source run on for later consumers', () => {
    const sideEffects: number[] = [];
    const synchronous = new Observable<number>((subscriber) => {
      for (let index = 0; !subscriber.closed && index < 10; index += 1) {
        sideEffects.push(index);
        subscriber.next(index);
      }
    });
    const shared = synchronous.pipe(shareReplayOperator(3));
    shared.pipe(take(3)).subscribe(() => {});
    expect(sideEffects.length).toBe(10);
    const replayed: number[] = [];
    shared.subscribe((value) => replayed.push(value));
    expect(replayed).toEqual([7, 8, 9]);
  });
});

describe("sluice's shareReplay(): the consumers' demand reaches the producer", () => {
  it('the slowest consumer pauses the process; a late consumer gets the replay, then governs too', () => {
    newTestScheduler().run(({ cold, demand, expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e-f|' });
      const shared = exec('make', [], { port: fake }).pipe(
        shareReplay({ bufferSize: 2, refCount: true }),
        map(letter),
      );
      const first = demand('     ---p---r');
      const late = demand('      ---------p---r');
      const join = cold('        ------j|');
      const expectedFirst = '    -a-----b-----c-d-e-f(x|)';
      const expectedLate = '     ------ab-----c-d-e-f(x|)';
      expectObservable(withDemand(first, shared)).toBe(expectedFirst);
      expectObservable(withDemand(late, join.pipe(concatMap(() => shared)))).toBe(expectedLate);
      flush();
      // first is paused 3–7 (b waits in the pipe); late joins at 6 (a is replayed), is paused 9–13.
      expect(fake.pauses).toEqual([3, 9]);
      expect(fake.resumes).toEqual([7, 13]);
    });
  });
});

describe("sluice's shareReplay() options", () => {
  it('reject unknown keys and bad values with a TypeError naming the field (RxJS would fail later, or never)', () => {
    expect(() => shareReplay({ bufferSize: 1, refcount: true } as never)).toThrow(
      new TypeError('Unknown `refcount` option (known options: bufferSize, windowTime, refCount, scheduler)'),
    );
    expect(() => shareReplay({ refCount: 'yes' as never })).toThrow(
      new TypeError('Expected the `refCount` option to be a boolean, got `yes` (string)'),
    );
    expect(() => shareReplay({ bufferSize: -1, refCount: false })).toThrow(
      new TypeError('Expected the `bufferSize` option to be a non-negative number, got `-1` (number)'),
    );
    expect(() => shareReplay({ windowTime: Number.NaN, refCount: false })).toThrow(
      /`windowTime` option to be a non-negative number/,
    );
    expect(() => shareReplay('10' as never)).toThrow(
      new TypeError('Expected the `bufferSize` argument to be a non-negative number, got `10` (string)'),
    );
    expect(() => shareReplay(1, -5)).toThrow(/`windowTime` argument/);
    expect(() => shareReplay()).not.toThrow();
    expect(() => shareReplay({ bufferSize: Number.POSITIVE_INFINITY, refCount: true })).not.toThrow();
  });
});
