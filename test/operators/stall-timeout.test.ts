import { Observable, Subject, take, VirtualTimeScheduler } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toAsyncIterable } from '../../src/adapters/to-async-iterable.js';
import type { ChunkEvent } from '../../src/core/chunk.js';
import { type Demand, Valve } from '../../src/core/demand.js';
import { SequenceError } from '../../src/core/errors/sequence-error.js';
import { demandOf } from '../../src/core/subscriber-chain.js';
import { bounded } from '../../src/operators/bounded.js';
import { type StallTimeoutInfo, stallTimeout } from '../../src/operators/stall-timeout.js';
import { exec } from '../../src/sources/exec.js';
import { withDemand } from '../../src/testing/index.js';
import { chunk, chunkLetters } from '../support/chunk.js';
import { groupAlive } from '../support/processes.js';
import { needs } from '../support/system-tools.js';
import { newTestScheduler } from '../support/test-scheduler.js';

type Event = ChunkEvent<string>;

const stalled = (sequence: number): Event =>
  chunk<string>(sequence, null, true, { kind: 'end', metadata: { reason: 'stalled' } });

/** A producer that honours demand: it emits its next event on each tick of `ticks` unless paused. */
function paced(ticks: Observable<unknown>, events: Event[]) {
  return new Observable<Event>((subscriber) => {
    const demand = demandOf(subscriber);
    let index = 0;
    return ticks.subscribe(() => {
      if (demand?.paused) return;
      subscriber.next(events[index++] as Event);
      if (index === events.length) subscriber.complete();
    });
  });
}

const recorder = () => {
  const calls: Array<[string, StallTimeoutInfo]> = [];
  return {
    calls,
    logger: { warn: (message: string, info: StallTimeoutInfo) => calls.push([message, info]) },
  };
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('stallTimeout', () => {
  it('stalls exactly `ms` after the consumer paused: cancels the producer, ends with reason stalled', () => {
    const { calls, logger } = recorder();
    newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions, time }) => {
      const ticks = cold('  x-x-x-x-x-x-x-x-x-x-x-x-x-x-x');
      const ui = demand('   -----p');
      const ms = time('          ------|');
      const expected = '    a-b-c------(z|)';
      const tickSubs = '    ^----------!';
      const source = paced(ticks, Object.values(chunkLetters('abcdefghijklmnop')));
      expectObservable(withDemand(ui, source.pipe(stallTimeout({ ms, logger })))).toBe(expected, {
        ...chunkLetters('abc'),
        z: stalled(3),
      });
      expectSubscriptions(ticks.subscriptions).toBe(tickSubs);
    });
    expect(calls).toEqual([
      ['Stream stalled: consumer did not pull for 0.006s', { ms: 6, lastSequence: 2, pausedAt: 5 }],
    ]);
  });

  it('before bounded(), starts the clock when the bounded buffer fills (the protocol channel)', () => {
    const { calls, logger } = recorder();
    newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions, time }) => {
      const ticks = cold('  x-x-x-x-x-x-x-x-x-x-x-x-x-x-x');
      const ui = demand('   ---p----------r');
      const ms = time('           -----|');
      const expected = '    a-b-----------(cdz|)';
      const tickSubs = '    ^----------!';
      const source = paced(ticks, Object.values(chunkLetters('abcdefghijklmnop')));
      const output = source.pipe(stallTimeout({ ms, logger }), bounded({ bufferSize: 2 }));
      expectObservable(withDemand(ui, output)).toBe(expected, { ...chunkLetters('abcd'), z: stalled(4) });
      expectSubscriptions(ticks.subscriptions).toBe(tickSubs);
    });
    // c waits from frame 4, d from 6: the buffer is full and the producer blocked from frame 6.
    expect(calls.map(([, info]) => info)).toEqual([{ ms: 5, lastSequence: 3, pausedAt: 6 }]);
  });

  it('resets the clock on consumer progress', () => {
    const { calls, logger } = recorder();
    newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions, time }) => {
      const ticks = cold('  x-x-x-x-x-x-x-x-x-x-x-x-x-x-x');
      const ui = demand('   ---p--r---p');
      const ms = time('               -----|');
      const expected = '    a-b---c-d------(z|)';
      const tickSubs = '    ^--------------!';
      const source = paced(ticks, Object.values(chunkLetters('abcdefghijklmnop')));
      expectObservable(withDemand(ui, source.pipe(stallTimeout({ ms, logger })))).toBe(expected, {
        ...chunkLetters('abcd'),
        z: stalled(4),
      });
      expectSubscriptions(ticks.subscriptions).toBe(tickSubs);
    });
    // The first pause (frame 3) would have stalled at 8; the resume at 6 cancelled that clock.
    expect(calls.map(([, info]) => info)).toEqual([{ ms: 5, lastSequence: 3, pausedAt: 10 }]);
  });

  it('restarts the clock on each value the consumer takes while it stays paused (Demand.onProgress)', () => {
    // A consumer with hysteresis (toAsyncIterable) stays paused while it drains half its buffer:
    // every value it takes is progress, and only `ms` without one is a stall.
    const { calls, logger } = recorder();
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions, time }) => {
      const valve = new Valve();
      const ticks = cold('  x-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x');
      const pause = hot('   ----p');
      const takes = hot('   -------t---t---t');
      const ms = time('                     -----|');
      const expected = '    a-b-----------------(z|)';
      const tickSubs = '    ^-------------------!';
      pause.subscribe(() => valve.pause());
      takes.subscribe(() => valve.progress());
      const source = paced(ticks, Object.values(chunkLetters('abcdefghijklmnop')));
      expectObservable(withDemand(valve, source.pipe(stallTimeout({ ms, logger })))).toBe(expected, {
        ...chunkLetters('ab'),
        z: stalled(2),
      });
      expectSubscriptions(ticks.subscriptions).toBe(tickSubs);
    });
    // Paused at 4 (before that frame's tick); takes at 7, 11 and 15 each restart the clock: without
    // them it would stall at 9; 15 + 5 = 20 is the stall.
    expect(calls.map(([, info]) => info)).toEqual([{ ms: 5, lastSequence: 1, pausedAt: 15 }]);
  });

  it('does not stall a slow consumer that keeps pulling through toAsyncIterable', async () => {
    // bufferSize 8 → paused at 8 queued, resumed at 4: four values are taken while paused, 100 ms
    // apart. Without progress the 250 ms stall clock would fire before the resume (~400 ms after the
    // pause); with it, no gap comes near 250 ms (generous for a loaded machine).
    const valveSeen: Demand[] = [];
    const source = new Observable<Event>((subscriber) => {
      const demand = demandOf(subscriber);
      if (demand) valveSeen.push(demand);
      let sequence = 0;
      const timer = setInterval(() => {
        while (!demand?.paused && sequence < 16) subscriber.next(chunk(sequence++, 'x', sequence === 16));
        if (sequence === 16) subscriber.complete();
      }, 1);
      return () => clearInterval(timer);
    });
    const { calls, logger } = recorder();
    const seen: Event[] = [];
    for await (const event of toAsyncIterable(source.pipe(stallTimeout({ ms: 250, logger })), {
      bufferSize: 8,
    })) {
      seen.push(event as Event);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(valveSeen).toHaveLength(1);
    expect(calls).toEqual([]);
    expect(seen.map((event) => event.sequence)).toEqual([...Array(16).keys()]);
    expect(seen.at(-1)?.isFinal).toBe(true);
  });

  it('never stalls while the consumer keeps pulling, however slow the stream', () => {
    const { calls, logger } = recorder();
    newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
      const values = chunkLetters('abcd', 'd');
      const source = cold('-a-------b---c-------d|', values);
      const ui = demand('  ---p-r-p-r--p-r');
      const expected = '   -a-------b---c-------d|';
      expectObservable(withDemand(ui, source.pipe(stallTimeout({ ms: 3, logger })))).toBe(expected, values);
      expectSubscriptions(source.subscriptions).toBe('^---------------------!');
    });
    expect(calls).toEqual([]);
  });

  it('cannot stall once the final event has passed', () => {
    const { calls, logger } = recorder();
    newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
      const values = chunkLetters('ab', 'b');
      const source = cold('-a-b----------|', values);
      const ui = demand('  ----p');
      expectObservable(withDemand(ui, source.pipe(stallTimeout({ ms: 2, logger })))).toBe(
        '-a-b----------|',
        values,
      );
      expectSubscriptions(source.subscriptions).toBe('^-------------!');
    });
    expect(calls).toEqual([]);
  });

  it('is disabled by `ms: 0`', () => {
    const { calls, logger } = recorder();
    newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
      const values = chunkLetters('abc', 'c');
      const source = cold('-a-b------------(c|)', values);
      const ui = demand('  --p');
      expectObservable(withDemand(ui, source.pipe(stallTimeout({ ms: 0, logger })))).toBe(
        '-a-b------------(c|)',
        values,
      );
      expectSubscriptions(source.subscriptions).toBe('^---------------!');
    });
    expect(calls).toEqual([]);
  });

  it('is a pass-through without a consumer demand (nothing can pause)', () => {
    const { calls, logger } = recorder();
    const seen: Array<Demand | undefined> = [];
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const values = chunkLetters('ab', 'b');
      const source = cold('-a------------(b|)', values);
      const probed = new Observable<Event>((subscriber) => {
        seen.push(demandOf(subscriber));
        return source.subscribe(subscriber);
      });
      expectObservable(probed.pipe(stallTimeout({ ms: 2, logger }))).toBe('-a------------(b|)', values);
      expectSubscriptions(source.subscriptions).toBe('^-------------!');
    });
    expect(seen).toEqual([undefined]);
    expect(calls).toEqual([]);
  });

  it('passes the consumer demand upstream unchanged', () => {
    const seen: Array<Demand | undefined> = [];
    const probe = new Observable<Event>((subscriber) => {
      seen.push(demandOf(subscriber));
      subscriber.complete();
    });
    const valve = new Valve();
    withDemand(valve, probe.pipe(stallTimeout({ ms: 5 }))).subscribe();
    expect(seen).toEqual([valve]);
  });

  it('starts the clock at once when the consumer is already paused, with sequence 0 for an empty stream', () => {
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions, time }) => {
      const source = cold<Event>('-------');
      const ms = time('           ----|');
      const expected = '          ----(z|)';
      const valve = new Valve();
      valve.pause();
      const logger = { warn: () => undefined };
      expectObservable(withDemand(valve, source.pipe(stallTimeout({ ms, logger })))).toBe(expected, {
        z: stalled(0),
      });
      expectSubscriptions(source.subscriptions).toBe('^---!');
    });
  });

  it('logs one console warning by default, with the timeout in seconds', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
      const source = cold('a', { a: chunk(0, 'a') });
      const ui = demand('  -p');
      const expected = '   a 30s (z|)';
      expectObservable(withDemand(ui, source.pipe(stallTimeout()))).toBe(expected, {
        a: chunk(0, 'a'),
        z: stalled(1),
      });
      expectSubscriptions(source.subscriptions).toBe('^ 30s !');
    });
    expect(warn.mock.calls).toEqual([['Stream stalled: consumer did not pull for 30s']]);
  });

  it('calls onStall once with the info, and fails with what a throwing logger throws', () => {
    const infos: StallTimeoutInfo[] = [];
    newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
      const source = cold('ab', chunkLetters('ab'));
      const ui = demand('  --p');
      const logger = { warn: () => undefined };
      const onStall = (info: StallTimeoutInfo) => infos.push(info);
      const output = source.pipe(stallTimeout({ ms: 200, logger, onStall }));
      expectObservable(withDemand(ui, output)).toBe('ab 200ms (z|)', {
        ...chunkLetters('ab'),
        z: stalled(2),
      });
      expectSubscriptions(source.subscriptions).toBe('^- 200ms !');
    });
    expect(infos).toEqual([{ ms: 200, lastSequence: 1, pausedAt: 2 }]);

    newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
      const source = cold('a', chunkLetters('a'));
      const ui = demand('  -p');
      const logger = {
        warn: () => {
          throw new Error('logger down');
        },
      };
      const output = source.pipe(stallTimeout({ ms: 3, logger }));
      expectObservable(withDemand(ui, output)).toBe('a---#', chunkLetters('a'), new Error('logger down'));
      expectSubscriptions(source.subscriptions).toBe('^---!');
    });
  });

  it('clears its timer when unsubscribed', () => {
    const { calls, logger } = recorder();
    newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
      const values = chunkLetters('ab');
      const source = cold('-a-b-----', values);
      const ui = demand('  --p');
      const unsub = '      ----!';
      expectObservable(withDemand(ui, source.pipe(stallTimeout({ ms: 3, logger }))), unsub).toBe(
        '-a-b',
        values,
      );
      expectSubscriptions(source.subscriptions).toBe('^---!');
    });
    expect(calls).toEqual([]);
  });

  it('stops listening to a synchronous source when unsubscribed', () => {
    const sideEffects: number[] = [];
    const synchronous = new Observable<Event>((subscriber) => {
      for (let i = 0; !subscriber.closed && i < 10; i += 1) {
        sideEffects.push(i);
        subscriber.next(chunk(i, String(i)));
      }
    });
    withDemand(new Valve(), synchronous.pipe(stallTimeout({ ms: 5 }), take(3))).subscribe();
    expect(sideEffects).toEqual([0, 1, 2]);
  });

  it('stops listening to the demand and arms no timer once the stream has ended', () => {
    const listeners = new Set<(paused: boolean) => void>();
    const demand: Demand & { paused: boolean } = {
      paused: false,
      onChange: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const scheduler = new VirtualTimeScheduler();
    const source = new Subject<Event>();
    withDemand(demand, source.pipe(stallTimeout({ ms: 5, scheduler }))).subscribe();
    expect(listeners.size).toBe(1);
    demand.paused = true;
    for (const listener of listeners) listener(true);
    expect(scheduler.actions).toHaveLength(1);
    source.complete();
    expect(listeners.size).toBe(0);
    expect(scheduler.actions).toHaveLength(0);
  });

  it.skipIf(!needs('linux'))(
    'cancels a real child blocked on its full pipe: the whole process group is gone',
    async () => {
      const { calls, logger } = recorder();
      const valve = new Valve();
      const received: Array<ChunkEvent<unknown>> = [];
      const script = 'echo $$; yes sluice | cat';
      await new Promise<void>((resolve, reject) => {
        withDemand(valve, exec('sh', ['-c', script]).pipe(stallTimeout({ ms: 200, logger }))).subscribe({
          next: (event) => {
            received.push(event);
            // The consumer takes a few lines, then stops pulling for good.
            if (received.length === 5) valve.pause();
          },
          error: reject,
          complete: resolve,
        });
      });
      const last = received.at(-1);
      expect(last).toMatchObject({
        kind: 'end',
        content: null,
        isFinal: true,
        metadata: { reason: 'stalled' },
      });
      expect(last?.sequence).toBe(received.length - 1);
      expect(calls.map(([message]) => message)).toEqual(['Stream stalled: consumer did not pull for 0.2s']);
      const pgid = Number(String(received[0]?.content).trim());
      expect(pgid).toBeGreaterThan(1);
      const deadline = Date.now() + 10_000;
      while (groupAlive(pgid)) {
        if (Date.now() > deadline) throw new Error(`process group ${pgid} still alive`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  );

  it('validates its options before anything is subscribed', () => {
    expect(() => stallTimeout({ ms: -1 })).toThrow(
      new TypeError('Expected the `ms` option to be a non-negative integer, got `-1` (number)'),
    );
    expect(() => stallTimeout({ ms: 1.5 })).toThrow('`ms` option to be a non-negative integer, got `1.5`');
    expect(() => stallTimeout({ scheduler: {} as never })).toThrow(
      'Expected the `scheduler` option to be a SchedulerLike, got `{}` (object)',
    );
    expect(() => stallTimeout({ logger: { log: () => 1 } as never })).toThrow(
      'Expected the `logger` option to be an object with a `warn` method',
    );
    expect(() => stallTimeout({ onStall: 5 as never })).toThrow(
      'Expected the `onStall` option to be a function, got `5` (number)',
    );
  });

  it('caps ms at the longest timer delay, and rejects unknown options', () => {
    expect(() => stallTimeout({ ms: 3e9 })).toThrow(
      new TypeError(
        'Expected the `ms` option to be a non-negative integer up to 2147483647, got `3000000000` (number)',
      ),
    );
    expect(() => stallTimeout({ ms: 2_147_483_647 })).not.toThrow();
    expect(() => stallTimeout({ timeoutMs: 200 } as never)).toThrow(
      new TypeError('Unknown `timeoutMs` option (known options: ms, scheduler, logger, onStall)'),
    );
  });

  it('errors naming joinRuns() when the source goes on after its final event (several runs in one stream)', () => {
    newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-c-|', { a: chunk(0, 'one'), b: chunk(1, null, true), c: chunk(0, 'two') });
      const ui = demand('  r');
      const error = new SequenceError({ rule: 'final-before-complete', expected: undefined, received: 0 });
      expectObservable(withDemand(ui, source.pipe(stallTimeout({ ms: 10 })))).toBe(
        '-a-b-#',
        { a: chunk(0, 'one'), b: chunk(1, null, true) },
        error,
      );
      expectSubscriptions(source.subscriptions).toBe('^----!');
    });
  });
});
