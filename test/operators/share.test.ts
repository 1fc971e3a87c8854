import {
  concatMap,
  type MonoTypeOperatorFunction,
  map,
  mergeMap,
  Observable,
  ReplaySubject,
  repeat,
  retry,
  share as rxShare,
  shareReplay as rxShareReplay,
  type SchedulerLike,
  type ShareConfig,
  type ShareReplayConfig,
  take,
  timer,
} from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../src/core/chunk.js';
import type { Demand } from '../../src/core/demand.js';
import { BufferOverflowError } from '../../src/core/errors/buffer-overflow-error.js';
import { DemandQueue } from '../../src/core/queue/demand-queue.js';
import { Credit, DemandGate } from '../../src/core/queue/queue-outlet.js';
import { demandOf, subscribeWithDemand } from '../../src/core/subscriber-chain.js';
import { share, shareReplay } from '../../src/operators/share.js';
import { type ExecEvent, exec } from '../../src/sources/exec.js';
import { withDemand } from '../../src/testing/index.js';
import { newTestScheduler } from '../support/test-scheduler.js';

/** An exec event as a marble letter: a line's content without its newline, `x` for the exit. */
const letter = (event: ExecEvent): string => (event.kind === 'exit' ? 'x' : event.content.trimEnd());

/** An exec event with what a bound did to it: `e:1+3` is line e, re-stamped as sequence 1, 3 dropped before it. */
const stamped = (event: ExecEvent): string =>
  `${letter(event)}:${event.sequence}${event.metadata?.dropped ? `+${event.metadata.dropped}` : ''}`;

const implementations: [string, <T>(config?: ShareConfig<T>) => MonoTypeOperatorFunction<T>][] = [
  ['RxJS', rxShare],
  ['sluice', share],
];

// The same specs, with the same marbles, for RxJS's share() and sluice's: with plain subscribers
// sluice's share() is a drop-in.
describe.each(implementations)('%s share() with plain subscribers', (_name, shareOperator) => {
  it('mirrors a simple source', () => {
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('  --1-2---3-4--5-|');
      const sourceSubs = '   ^--------------!';
      const expected = '     --1-2---3-4--5-|';
      expectObservable(source.pipe(shareOperator())).toBe(expected);
      expectSubscriptions(source.subscriptions).toBe(sourceSubs);
    });
  });

  it('shares one subscription of the source among consumers that join later', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = cold('     -1-2-3----4-|');
      const sourceSubs = '      ^-----------!';
      const shared = source.pipe(shareOperator());
      const subscriber1 = hot(' a|').pipe(mergeMap(() => shared));
      const expected1 = '       -1-2-3----4-|';
      const subscriber2 = hot(' ----b|').pipe(mergeMap(() => shared));
      const expected2 = '       -----3----4-|';
      const subscriber3 = hot(' --------c|').pipe(mergeMap(() => shared));
      const expected3 = '       ----------4-|';
      expectObservable(subscriber1).toBe(expected1);
      expectObservable(subscriber2).toBe(expected2);
      expectObservable(subscriber3).toBe(expected3);
      expectSubscriptions(source.subscriptions).toBe(sourceSubs);
    });
  });

  it("shares the source's error with every consumer", () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = cold('     -1-2-3----4-#');
      const sourceSubs = '      ^-----------!';
      const shared = source.pipe(shareOperator());
      const expected1 = '       -1-2-3----4-#';
      const subscriber2 = hot(' ----b|').pipe(mergeMap(() => shared));
      const expected2 = '       -----3----4-#';
      expectObservable(shared).toBe(expected1);
      expectObservable(subscriber2).toBe(expected2);
      expectSubscriptions(source.subscriptions).toBe(sourceSubs);
    });
  });

  it('unsubscribes from the source when the last consumer leaves, not before', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = cold('     ---1-2-3----4-|');
      const sourceSubs = '      --^--------!';
      const shared = source.pipe(shareOperator());
      const subscriber1 = hot(' --a|').pipe(mergeMap(() => shared));
      const unsub1 = '          ---------!';
      const expected1 = '       -----1-2-';
      const subscriber2 = hot(' ------b|').pipe(mergeMap(() => shared));
      const unsub2 = '          -----------!';
      const expected2 = '       -------2-3-';
      expectObservable(subscriber1, unsub1).toBe(expected1);
      expectObservable(subscriber2, unsub2).toBe(expected2);
      expectSubscriptions(source.subscriptions).toBe(sourceSubs);
    });
  });

  it('re-subscribes the source after an error (resetOnError), so retry starts over', () => {
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('  ---a--b-#');
      const sourceSubs = [' ^-------!', ' --------^-------!'];
      const expected = '     ---a--b----a--b-#';
      expectObservable(source.pipe(shareOperator(), retry(1))).toBe(expected);
      expectSubscriptions(source.subscriptions).toBe(sourceSubs);
    });
  });

  it('re-subscribes the source after completion (resetOnComplete), so repeat starts over', () => {
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('  ---a--b-|');
      const sourceSubs = [' ^-------!', ' --------^-------!'];
      const expected = '     ---a--b----a--b-|';
      expectObservable(source.pipe(shareOperator(), repeat(2))).toBe(expected);
      expectSubscriptions(source.subscriptions).toBe(sourceSubs);
    });
  });

  it('with resetOnRefCountZero: false keeps the source running after the last consumer left', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = cold('     -1-2-3-4-5-|');
      const sourceSubs = '      ^----------!';
      const shared = source.pipe(shareOperator({ resetOnRefCountZero: false }));
      const unsub1 = '          ---!';
      const expected1 = '       -1-';
      const subscriber2 = hot(' ------b|').pipe(mergeMap(() => shared));
      const expected2 = '       -------4-5-|';
      expectObservable(shared, unsub1).toBe(expected1);
      expectObservable(subscriber2).toBe(expected2);
      expectSubscriptions(source.subscriptions).toBe(sourceSubs);
    });
  });

  it('with resetOnComplete: false a late consumer only gets the completion', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = cold('     -1-2-|');
      const sourceSubs = '      ^----!';
      const shared = source.pipe(shareOperator({ resetOnComplete: false }));
      const expected1 = '       -1-2-|';
      const subscriber2 = hot(' -------b|').pipe(mergeMap(() => shared));
      const expected2 = '       --------|';
      expectObservable(shared).toBe(expected1);
      expectObservable(subscriber2).toBe(expected2);
      expectSubscriptions(source.subscriptions).toBe(sourceSubs);
    });
  });

  it('with a reset notifier, a consumer that comes back before it fires keeps the connection', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions, time }) => {
      const source = cold('     -1-2-3-4-5-6-|');
      const grace = time('      ----|');
      const sourceSubs = '      ^------------!';
      const shared = source.pipe(shareOperator({ resetOnRefCountZero: () => timer(grace) }));
      const unsub1 = '          ---!';
      const expected1 = '       -1-';
      const subscriber2 = hot(' ----b|').pipe(mergeMap(() => shared));
      const expected2 = '       -----3-4-5-6-|';
      expectObservable(shared, unsub1).toBe(expected1);
      expectObservable(subscriber2).toBe(expected2);
      expectSubscriptions(source.subscriptions).toBe(sourceSubs);
    });
  });

  it('with a connector, uses that subject (a ReplaySubject replays to a late consumer)', () => {
    newTestScheduler().run(({ cold, hot, expectObservable }) => {
      const source = cold('     -1-2-3-|');
      const shared = source.pipe(shareOperator({ connector: () => new ReplaySubject(1) }));
      const expected1 = '       -1-2-3-|';
      const subscriber2 = hot(' ----b|').pipe(mergeMap(() => shared));
      const expected2 = '       ----23-|';
      expectObservable(shared).toBe(expected1);
      expectObservable(subscriber2).toBe(expected2);
    });
  });

  it('stops listening to a synchronous source when unsubscribed', () => {
    const sideEffects: number[] = [];
    const synchronous = new Observable<number>((subscriber) => {
      for (let index = 0; !subscriber.closed && index < 10; index += 1) {
        sideEffects.push(index);
        subscriber.next(index);
      }
    });
    synchronous.pipe(shareOperator(), take(3)).subscribe(() => {});
    expect(sideEffects).toEqual([0, 1, 2]);
  });
});

describe("sluice's share(): the consumers' demand reaches the producer", () => {
  it("governor 'slowest' (default): the producer pauses while any consumer is paused; both see every line once", () => {
    newTestScheduler().run(({ demand, expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e-f|' });
      const shared = exec('make', [], { port: fake }).pipe(share(), map(letter));
      const fast = demand('   ---p---r');
      const slow = demand('   -----p------r');
      const expected = '      -a----------b-c-d-e-f(x|)';
      expectObservable(withDemand(fast, shared)).toBe(expected);
      expectObservable(withDemand(slow, shared)).toBe(expected);
      flush();
      // Paused from the first pause (3) until the last resume (12): b waited in the child's pipe.
      expect(fake.pauses).toEqual([3]);
      expect(fake.resumes).toEqual([12]);
      expect(fake.spawns.length).toBe(1);
    });
  });

  it('a consumer that joins already paused pauses the producer as it joins, and its resume lets it go on', () => {
    newTestScheduler().run(({ cold, demand, expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-----d-----e|' });
      const shared = exec('make', [], { port: fake }).pipe(share(), map(letter));
      const late = demand('        --p------r');
      const join = cold('          ----j|');
      const expectedFirst = '      -a-b-----c-----d-----e(x|)';
      const expectedLate = '       ---------c-----d-----e(x|)';
      expectObservable(shared).toBe(expectedFirst);
      expectObservable(withDemand(late, join.pipe(concatMap(() => shared)))).toBe(expectedLate);
      flush();
      // Paused when the late consumer joins (4): c blocks the child until its resume (9).
      expect(fake.pauses).toEqual([4]);
      expect(fake.resumes).toEqual([9]);
    });
  });

  it("governor 'fastest': a flowing consumer that joins while every other is paused resumes the producer at once", () => {
    newTestScheduler().run(({ cold, demand, expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d|' });
      const shared = exec('make', [], { port: fake }).pipe(share({ governor: 'fastest' }), map(letter));
      const stuck = demand('       --p');
      const join = cold('          ----j|');
      const expectedStuck = '      -a';
      const expectedJoined = '     ----b-c-d(x|)';
      expectObservable(withDemand(stuck, shared)).toBe(expectedStuck);
      expectObservable(join.pipe(concatMap(() => shared))).toBe(expectedJoined);
      flush();
      // b blocked the child from 3 until the join (4) made a consumer flow.
      expect(fake.pauses).toEqual([2]);
      expect(fake.resumes).toEqual([4]);
    });
  });

  it('a paused consumer that leaves releases the producer at once', () => {
    newTestScheduler().run(({ demand, expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d|' });
      const shared = exec('make', [], { port: fake }).pipe(share(), map(letter));
      const slow = demand('   ---p');
      const leaves = '        ^-----!';
      const expectedSlow = '  -a----';
      const expectedStays = ' -a----b-c-d(x|)';
      expectObservable(withDemand(slow, shared), leaves).toBe(expectedSlow);
      expectObservable(shared).toBe(expectedStays);
      flush();
      expect(fake.pauses).toEqual([3]);
      expect(fake.resumes).toEqual([6]);
    });
  });

  it("RxJS's share() with the same consumers: the producer never pauses (why sluice's is needed)", () => {
    newTestScheduler().run(({ demand, expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e-f|' });
      const shared = exec('make', [], { port: fake }).pipe(rxShare(), map(letter));
      const expected = '-a-b-c-d-e-f(x|)';
      // RxJS's share() subscribes the producer with a subscriber that hides its consumers: neither
      // the first consumer's demand nor the second one's reaches it.
      expectObservable(withDemand(demand('---p------r'), shared)).toBe(expected);
      expectObservable(withDemand(demand('-----p------r'), shared)).toBe(expected);
      flush();
      expect(fake.pauses).toEqual([]);
    });
  });

  it("governor 'fastest': the producer pauses only while every consumer is paused", () => {
    newTestScheduler().run(({ demand, expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d|' });
      const shared = exec('make', [], { port: fake }).pipe(share({ governor: 'fastest' }), map(letter));
      const first = demand('  --p----r');
      const second = demand(' ---p--------r');
      const expectedFirst = ' -a-----b-c-d(x|)';
      const expectedSecond = '-a----------(bcdx|)';
      expectObservable(withDemand(first, shared)).toBe(expectedFirst);
      expectObservable(withDemand(second, shared)).toBe(expectedSecond);
      flush();
      // Both paused from 3 to 7: the producer too. Then the first flows: so does the producer, and
      // the second consumer's bound holds what it cannot take yet (it had room for all three).
      expect(fake.pauses).toEqual([3]);
      expect(fake.resumes).toEqual([7]);
    });
  });

  it("governor 'fastest' with slowConsumer 'sliding': a lagging consumer keeps the newest lines, drops reported in metadata.dropped", () => {
    newTestScheduler().run(({ demand, expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e-f|' });
      const shared = exec('make', [], { port: fake }).pipe(
        share({ governor: 'fastest', slowConsumer: { bufferSize: 2, strategy: 'sliding' } }),
        map(stamped),
      );
      const lagging = demand('--p---------r');
      expectObservable(shared).toBe('-a-b-c-d-e-f(x|)', {
        a: 'a:0',
        b: 'b:1',
        c: 'c:2',
        d: 'd:3',
        e: 'e:4',
        f: 'f:5',
        x: 'x:6',
      });
      // b, c, d were dropped behind the paused consumer: e carries the count, sequences stay contiguous.
      expectObservable(withDemand(lagging, shared)).toBe('-a----------(efx|)', {
        a: 'a:0',
        e: 'e:1+3',
        f: 'f:2',
        x: 'x:3',
      });
      flush();
      expect(fake.pauses).toEqual([]);
    });
  });

  it("governor 'fastest' with slowConsumer 'error': the lagging consumer fails after what it held, the others go on", () => {
    newTestScheduler().run(({ demand, expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e-f|' });
      const shared = exec('make', [], { port: fake }).pipe(
        share({ governor: 'fastest', slowConsumer: { bufferSize: 2, strategy: 'error' } }),
        map(letter),
      );
      const lagging = demand('--p---------r');
      expectObservable(shared).toBe('-a-b-c-d-e-f(x|)');
      expectObservable(withDemand(lagging, shared)).toBe(
        '-a----------(bc#)',
        undefined,
        new BufferOverflowError({ bufferSize: 2 }),
      );
      flush();
      expect(fake.pauses).toEqual([]);
    });
  });

  it("governor 'fastest' with slowConsumer 'dropping': the lagging consumer keeps the oldest lines", () => {
    newTestScheduler().run(({ demand, expectObservable, fakeExec }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e-f|' });
      const shared = exec('make', [], { port: fake }).pipe(
        share({ governor: 'fastest', slowConsumer: { bufferSize: 2, strategy: 'dropping' } }),
        map(stamped),
      );
      const lagging = demand('--p---------r');
      expectObservable(shared.pipe(map(() => '.'))).toBe('-.-.-.-.-.-.(.|)');
      // b and c wait; d, e and f arrive at a full bound and are dropped: the exit reports them.
      expectObservable(withDemand(lagging, shared)).toBe('-a----------(bcx|)', {
        a: 'a:0',
        b: 'b:1',
        c: 'c:2',
        x: 'x:3+3',
      });
    });
  });
});

describe("sluice's share({ governor: 'fastest' }) with buffering consumers", () => {
  /** A stream of numbered line events read in bursts (a pipe read split into lines), exec's way. */
  function bursting() {
    let next = 0;
    let queue: DemandQueue<ChunkEvent<number>> | undefined;
    const events = new Observable<ChunkEvent<number>>((subscriber) => {
      queue = new DemandQueue<ChunkEvent<number>>(
        {
          highWater: 1,
          lowWater: 0,
          deliver: (event) => subscriber.next(event),
          finish: () => subscriber.complete(),
        },
        new DemandGate(demandOf(subscriber) as Demand, true),
      );
    });
    /** Reads `lines` more if the producer's pipe is read at all (it flows); returns whether it did. */
    const read = (lines: number) => {
      if (queue === undefined || queue.producerValve.paused) return false;
      for (let index = 0; index < lines; index += 1) {
        next += 1;
        queue.push({ sequence: next - 1, kind: 'stdout', content: next, isFinal: false });
      }
      return true;
    };
    return { events, read };
  }

  /** A consumer with a buffer of 16 that takes values only when asked (an adapter, a slow loop). */
  function consumer(source: Observable<ChunkEvent<number>>) {
    const seen: number[] = [];
    let dropped = 0;
    const credit = new Credit();
    const buffer = new DemandQueue<ChunkEvent<number>>(
      {
        highWater: 16,
        lowWater: 8,
        deliver: (event) => {
          seen.push(event.content ?? Number.NaN);
          dropped += event.metadata?.dropped ?? 0;
        },
        finish: () => {},
      },
      credit,
    );
    subscribeWithDemand(source, buffer.producerValve, { next: (event) => buffer.push(event) });
    // Takes what waits in the buffer, and no more.
    return { seen, dropped: () => dropped, take: () => credit.request(buffer.size) };
  }

  it('the consumer that governs loses nothing, while the lagging one refills its buffer from its bound', () => {
    const { events, read } = bursting();
    const shared = events.pipe(
      share({ governor: 'fastest', slowConsumer: { bufferSize: 64, strategy: 'sliding' } }),
    );
    const slow = consumer(shared);
    const fast = consumer(shared);
    for (let round = 0; round < 200; round += 1) {
      // The child writes as long as its pipe is read (here: up to 20 reads before the consumers move).
      for (let reads = 0; reads < 20 && read(100); reads += 1) {}
      fast.take(); // the fast one empties its buffer at once…
      if (round % 10 === 9) slow.take(); // …the slow one now and then
    }
    const expected = Array.from({ length: fast.seen.length }, (_, index) => index + 1);
    expect(fast.seen).toEqual(expected); // every line, in order
    expect(fast.seen.length).toBeGreaterThan(1000);
    expect(slow.dropped()).toBeGreaterThan(0); // the slow one fell behind and was told how much
  });
});

describe("sluice's share() options", () => {
  it('reject a bad governor, slowConsumer or connector with a TypeError naming the field', () => {
    expect(() => share({ governor: 'average' as never })).toThrow(
      new TypeError("Expected the `governor` option to be 'slowest' or 'fastest', got `average` (string)"),
    );
    expect(() => share({ governor: 'fastest', slowConsumer: 16 as never })).toThrow(
      new TypeError('Expected the `slowConsumer` option to be an object, got `16` (number)'),
    );
    expect(() => share({ governor: 'fastest', slowConsumer: { bufferSize: 0 } })).toThrow(
      new TypeError(
        'Expected the `slowConsumer.bufferSize` option to be a positive integer, got `0` (number)',
      ),
    );
    expect(() => share({ governor: 'fastest', slowConsumer: { strategy: 'suspend' as never } })).toThrow(
      new TypeError(
        "Expected the `slowConsumer.strategy` option to be one of 'dropping', 'sliding', 'error', got `suspend` (string)",
      ),
    );
    expect(() => share({ governor: 'fastest', slowConsumer: { size: 4 } as never })).toThrow(
      new TypeError('Unknown `slowConsumer.size` option (known options: bufferSize, strategy)'),
    );
    expect(() => share({ connector: 'subject' as never })).toThrow(
      new TypeError('Expected the `connector` option to be a function, got `subject` (string)'),
    );
    // RxJS would call a non-function reset when it happens, and the error would never reach the consumers.
    expect(() => share({ resetOnError: 'yes' as never })).toThrow(
      new TypeError(
        'Expected the `resetOnError` option to be a boolean or a function returning an Observable, got `yes` (string)',
      ),
    );
    expect(() => share({ resetOnRefCountZero: 0 as never })).toThrow(/`resetOnRefCountZero` option/);
    expect(() => share({ refCount: true } as never)).toThrow(/^Unknown `refCount` option \(known options: /);
    expect(() => share(null as never)).toThrow(
      new TypeError('Expected the options to be an object, got `null` (null)'),
    );
  });
});

type ShareReplay = {
  <T>(config: ShareReplayConfig): MonoTypeOperatorFunction<T>;
  <T>(bufferSize?: number, windowTime?: number, scheduler?: SchedulerLike): MonoTypeOperatorFunction<T>;
};

const replayImplementations: [string, ShareReplay][] = [
  ['RxJS', rxShareReplay],
  ['sluice', shareReplay],
];

// The same specs, with the same marbles, for RxJS's shareReplay() and sluice's.
describe.each(replayImplementations)(
  '%s shareReplay() with plain subscribers',
  (_name, shareReplayOperator) => {
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
  },
);

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
