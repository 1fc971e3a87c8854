import fc from 'fast-check';
import { type MonoTypeOperatorFunction, map, Observable, Subject, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../src/core/chunk.js';
import { type Demand, Valve } from '../../src/core/demand.js';
import { BufferOverflowError, isBufferOverflowError } from '../../src/core/errors/buffer-overflow-error.js';
import { SequenceError } from '../../src/core/errors/sequence-error.js';
import { demandOf } from '../../src/core/subscriber-chain.js';
import { bounded } from '../../src/operators/bounded.js';
import { checkSequence } from '../../src/operators/check-sequence.js';
import { joinRuns } from '../../src/operators/join-runs.js';
import { withDemand } from '../../src/testing/index.js';
import { chunk, chunkLetters } from '../support/chunk.js';
import { newTestScheduler } from '../support/test-scheduler.js';

type Event = ChunkEvent<string>;

/** Marble values: each letter is an event whose sequence is its index and whose content is itself. */

/**
 * A producer that honours demand: on every tick of `ticks` it emits its next event, unless its
 * demand is paused (then the tick is lost, as a blocked writer loses time). It logs the frames
 * at which its demand changed.
 */
function paced(ticks: Observable<unknown>, events: Event[], log: string[], now: () => number) {
  return new Observable<Event>((subscriber) => {
    const demand = demandOf(subscriber);
    const stop = demand?.onChange((paused) => log.push(`${now()}:${paused ? 'pause' : 'resume'}`));
    let index = 0;
    const subscription = ticks.subscribe(() => {
      if (demand?.paused) return;
      const event = events[index++] as Event;
      subscriber.next(event);
      if (index === events.length) subscriber.complete();
    });
    return () => {
      stop?.();
      subscription.unsubscribe();
    };
  });
}

describe('bounded', () => {
  describe('suspend', () => {
    it('pauses the producer when exactly `bufferSize` events wait and resumes it once fewer do', () => {
      const scheduler = newTestScheduler();
      const log: string[] = [];
      scheduler.run(({ cold, demand, expectObservable, expectSubscriptions }) => {
        const values = chunkLetters('abcdef', 'f');
        const ticks = cold('  x----x----x----x----x----x----x----x----x----x');
        const ui = demand('   -------p------------------r');
        const expected = '    a----b--------------------(cd)e----(f|)';
        const tickSubs = '    ^----------------------------------!';
        const source = paced(ticks, Object.values(values), log, () => scheduler.now());
        expectObservable(withDemand(ui, source.pipe(bounded({ bufferSize: 2 })))).toBe(expected, values);
        expectSubscriptions(ticks.subscriptions).toBe(tickSubs);
      });
      // c is queued at 10, d at 15: two wait, so the producer pauses; c's delivery at 26 frees a slot.
      expect(log).toEqual(['15:pause', '26:resume']);
    });

    it('keeps the producer at `bufferSize` ahead of a consumer that takes one event at a time', () => {
      const produced: number[] = [];
      const source = new Observable<Event>((subscriber) => {
        const demand = demandOf(subscriber) as Demand;
        let next = 0;
        const pump = () => {
          while (!demand.paused && next < 100 && !subscriber.closed) {
            produced.push(next);
            subscriber.next(chunk(next, String(next), next === 99));
            next += 1;
            // As every sluice source does: complete right after the final event.
            if (next === 100) subscriber.complete();
          }
        };
        const stop = demand.onChange((paused) => paused || pump());
        pump();
        return stop;
      });
      const valve = new Valve();
      valve.pause();
      const received: Event[] = [];
      let completed = false;
      withDemand(valve, source.pipe(bounded({ bufferSize: 3 }))).subscribe({
        next: (event) => {
          received.push(event);
          valve.pause();
        },
        complete: () => {
          completed = true;
        },
      });
      expect(produced).toHaveLength(3);
      for (let step = 1; step <= 20; step += 1) {
        valve.resume();
        expect(received).toHaveLength(step);
        expect(produced).toHaveLength(step + 3);
      }
      while (!completed) valve.resume();
      expect(received.map((event) => event.sequence)).toEqual(Array.from({ length: 100 }, (_, i) => i));
      expect(received.every((event) => event.metadata === undefined)).toBe(true);
    });

    it('keeps what a producer that ignores demand sends while paused (documented overshoot)', () => {
      newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
        const values = chunkLetters('abcde', 'e');
        const source = cold('-a-b-c-d-(e|)', values);
        const ui = demand('  -p----------r');
        const expected = '   ------------(abcde|)';
        expectObservable(withDemand(ui, source.pipe(bounded({ bufferSize: 2 })))).toBe(expected, values);
        expectSubscriptions(source.subscriptions).toBe('^--------!');
      });
    });

    it('delivers an error only after the events queued before it', () => {
      newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
        const values = chunkLetters('abc');
        const source = cold('-a-b-c-#', values, new Error('boom'));
        const ui = demand('  --p-------r');
        const expected = '   -a--------(bc#)';
        expectObservable(withDemand(ui, source.pipe(bounded({ bufferSize: 4 })))).toBe(
          expected,
          values,
          new Error('boom'),
        );
        expectSubscriptions(source.subscriptions).toBe('^------!');
      });
    });

    it('completes only after the queue has drained', () => {
      newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
        const values = chunkLetters('abc');
        const source = cold('-a-b-c-|', values);
        const ui = demand('  --p-------r');
        const expected = '   -a--------(bc|)';
        expectObservable(withDemand(ui, source.pipe(bounded()))).toBe(expected, values);
        expectSubscriptions(source.subscriptions).toBe('^------!');
      });
    });
  });

  describe('dropping', () => {
    it('drops the newest events and reports the count on the next one, re-stamping sequences', () => {
      newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
        const source = cold('-a-b-c-d-e------f|', chunkLetters('abcdef', 'f'));
        const ui = demand('  --p---------r');
        const expected = '   -a----------(bc)f|';
        expectObservable(
          withDemand(ui, source.pipe(bounded({ bufferSize: 2, strategy: 'dropping' }), checkSequence())),
        ).toBe(expected, {
          a: chunk(0, 'a'),
          b: chunk(1, 'b'),
          c: chunk(2, 'c'),
          f: chunk(3, 'f', true, { metadata: { dropped: 2 } }),
        });
        expectSubscriptions(source.subscriptions).toBe('^----------------!');
      });
    });

    it('never drops the final event: the newest waiting event makes room for it', () => {
      newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
        const source = cold('-a-b-c-d-e-f|', chunkLetters('abcdef', 'f'));
        const ui = demand('  --p-----------r');
        const expected = '   -a------------(bf|)';
        expectObservable(withDemand(ui, source.pipe(bounded({ bufferSize: 2, strategy: 'dropping' })))).toBe(
          expected,
          { a: chunk(0, 'a'), b: chunk(1, 'b'), f: chunk(2, 'f', true, { metadata: { dropped: 3 } }) },
        );
        expectSubscriptions(source.subscriptions).toBe('^-----------!');
      });
    });

    it('reports drops that end the stream on a final sentinel when the source just completes', () => {
      newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
        const source = cold('-a-b-c-d-|', chunkLetters('abcd'));
        const ui = demand('  --p---------r');
        const expected = '   -a----------(bz|)';
        expectObservable(withDemand(ui, source.pipe(bounded({ bufferSize: 1, strategy: 'dropping' })))).toBe(
          expected,
          {
            a: chunk(0, 'a'),
            b: chunk(1, 'b'),
            z: chunk(2, null, true, { kind: 'end', metadata: { dropped: 2 } }),
          },
        );
        expectSubscriptions(source.subscriptions).toBe('^--------!');
      });
    });
  });

  describe('sliding', () => {
    it('drops the oldest waiting events and reports the count on the event after the gap', () => {
      newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
        const source = cold('-a-b-c-d-e------f|', chunkLetters('abcdef', 'f'));
        const ui = demand('  --p---------r');
        const expected = '   -a----------(de)f|';
        expectObservable(
          withDemand(ui, source.pipe(bounded({ bufferSize: 2, strategy: 'sliding' }), checkSequence())),
        ).toBe(expected, {
          a: chunk(0, 'a'),
          d: chunk(1, 'd', false, { metadata: { dropped: 2 } }),
          e: chunk(2, 'e'),
          f: chunk(3, 'f', true),
        });
        expectSubscriptions(source.subscriptions).toBe('^----------------!');
      });
    });

    it('never drops the final event and adds to a count the source already reported', () => {
      newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
        const values = {
          ...chunkLetters('abcdef', 'f'),
          b: chunk(1, 'b', false, { metadata: { dropped: 5, partial: true } }),
        };
        const source = cold('-a-b-c-d-e-f|', values);
        const ui = demand('  --p-----------r');
        const expected = '   -a------------(ef|)';
        expectObservable(withDemand(ui, source.pipe(bounded({ bufferSize: 2, strategy: 'sliding' })))).toBe(
          expected,
          {
            a: chunk(0, 'a'),
            e: chunk(1, 'e', false, { metadata: { dropped: 3 + 5 } }),
            f: chunk(2, 'f', true),
          },
        );
        // The source completes (right after its final event) without waiting for the consumer.
        expectSubscriptions(source.subscriptions).toBe('^-----------!');
      });
    });
  });

  describe('error', () => {
    it('fails with BUFFER_OVERFLOW after the queued events and cancels the source at once', () => {
      newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
        const values = chunkLetters('abcdef', 'f');
        const source = cold('-a-b-c-d-e-f|', values);
        const ui = demand('  --p---------r');
        const expected = '   -a----------(bc#)';
        expectObservable(withDemand(ui, source.pipe(bounded({ bufferSize: 2, strategy: 'error' })))).toBe(
          expected,
          values,
          new BufferOverflowError({ bufferSize: 2 }),
        );
        expectSubscriptions(source.subscriptions).toBe('^------!');
      });
    });

    it('lets the final event in even when the buffer is full', () => {
      newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
        const values = chunkLetters('abcd', 'd');
        const source = cold('-a-b-c-d|', values);
        const ui = demand('  --p-------r');
        const expected = '   -a--------(bcd|)';
        expectObservable(withDemand(ui, source.pipe(bounded({ bufferSize: 2, strategy: 'error' })))).toBe(
          expected,
          values,
        );
        expectSubscriptions(source.subscriptions).toBe('^-------!');
      });
    });

    it('carries the code and bufferSize', () => {
      const valve = new Valve();
      valve.pause();
      const source = new Subject<Event>();
      let failure: unknown;
      withDemand(valve, source.pipe(bounded({ bufferSize: 1, strategy: 'error' }))).subscribe({
        error: (e) => (failure = e),
      });
      source.next(chunk(0, 'a'));
      source.next(chunk(1, 'b'));
      expect(source.observed).toBe(false);
      expect(failure).toBeUndefined();
      valve.resume();
      expect(isBufferOverflowError(failure)).toBe(true);
      expect(failure).toMatchObject({
        code: 'BUFFER_OVERFLOW',
        info: { bufferSize: 1 },
        name: 'BufferOverflowError',
      });
    });
  });

  describe('without a consumer demand', () => {
    it('is a pass-through that gives the producer no demand either', () => {
      const seen: Array<Demand | undefined> = [];
      newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
        const values = chunkLetters('abc', 'c');
        const source = cold('-a-b-(c|)', values);
        const probed = new Observable<Event>((subscriber) => {
          seen.push(demandOf(subscriber));
          return source.subscribe(subscriber);
        });
        expectObservable(probed.pipe(bounded({ bufferSize: 1, strategy: 'error' }))).toBe(
          '-a-b-(c|)',
          values,
        );
        expectSubscriptions(source.subscriptions).toBe('^----!');
      });
      expect(seen).toEqual([undefined]);
    });

    it('gives the producer no demand with a strategy that never pauses', () => {
      const seen: Array<Demand | undefined> = [];
      const probed = new Observable<Event>((subscriber) => {
        seen.push(demandOf(subscriber));
        subscriber.complete();
      });
      const valve = new Valve();
      withDemand(valve, probed.pipe(bounded({ strategy: 'sliding' }))).subscribe();
      withDemand(valve, probed.pipe(bounded({ strategy: 'suspend' }))).subscribe();
      expect(seen[0]).toBeUndefined();
      expect(seen[1]).toBeInstanceOf(Valve);
      expect(seen[1]).not.toBe(valve);
    });
  });

  describe('several runs in one stream (a final event before the source completes)', () => {
    const afterFinal = (received: number) =>
      new SequenceError({ rule: 'final-before-complete', expected: undefined, received });
    const twoRuns = {
      a: chunk(0, 'a'),
      b: chunk(1, 'b', true),
      c: chunk(0, 'c'),
      d: chunk(1, 'd', true),
    };

    for (const strategy of ['suspend', 'dropping', 'sliding', 'error'] as const) {
      it(`fails with STREAM_SEQUENCE after what is queued and cancels the rest (${strategy})`, () => {
        newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
          const source = cold('-a-b-c-d|', twoRuns);
          const ui = demand('  --p-------r');
          const expected = '   -a--------(b#)';
          expectObservable(withDemand(ui, source.pipe(bounded({ bufferSize: 4, strategy })))).toBe(
            expected,
            twoRuns,
            afterFinal(0),
          );
          // The second run's first event is the last thing read: its producer is cancelled at once.
          expectSubscriptions(source.subscriptions).toBe('^----!');
        });
      });
    }

    it('fails the same way as a pass-through (no demand below)', () => {
      newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
        const source = cold('-a-b-c-d|', twoRuns);
        expectObservable(source.pipe(bounded())).toBe('-a-b-#', twoRuns, afterFinal(0));
        expectSubscriptions(source.subscriptions).toBe('^----!');
      });
    });

    it('carries several runs once joinRuns() made them one stream', () => {
      newTestScheduler().run(({ cold, demand, expectObservable }) => {
        const runs = cold('-a-b-c-d|', twoRuns);
        const ui = demand('--p-------r');
        const events = withDemand(ui, runs.pipe(joinRuns(), bounded({ bufferSize: 8 })));
        expectObservable(events.pipe(map((event) => `${event.sequence}${event.isFinal ? '!' : ''}`))).toBe(
          '-a--------(bcde|)',
          { a: '0', b: '1', c: '2', d: '3', e: '4!' },
        );
      });
    });
  });

  it('cancels the source and frees the queue when unsubscribed', () => {
    newTestScheduler().run(({ cold, demand, expectObservable, expectSubscriptions }) => {
      const values = chunkLetters('abcd');
      const source = cold('-a-b-c-d-|', values);
      const ui = demand('  --p');
      const unsub = '      ------!';
      expectObservable(withDemand(ui, source.pipe(bounded())), unsub).toBe('-a----', values);
      expectSubscriptions(source.subscriptions).toBe('^-----!');
    });
  });

  it('stops listening to a synchronous source when unsubscribed', () => {
    const run = (operator: MonoTypeOperatorFunction<Event>, valve?: Valve) => {
      const sideEffects: number[] = [];
      const synchronous = new Observable<Event>((subscriber) => {
        for (let i = 0; !subscriber.closed && i < 10; i += 1) {
          sideEffects.push(i);
          subscriber.next(chunk(i, String(i)));
        }
      });
      withDemand(valve, synchronous.pipe(operator, take(3))).subscribe();
      return sideEffects;
    };
    expect(run(bounded())).toEqual([0, 1, 2]);
    expect(run(bounded({ bufferSize: 1 }), new Valve())).toEqual([0, 1, 2]);
    const paused = new Valve();
    paused.pause();
    expect(run(bounded({ bufferSize: 2, strategy: 'error' }), paused)).toEqual([0, 1, 2]);
  });

  it('validates its options before anything is subscribed', () => {
    expect(() => bounded({ bufferSize: 0 })).toThrow(
      new TypeError('Expected the `bufferSize` option to be a positive integer, got `0` (number)'),
    );
    expect(() => bounded({ bufferSize: 1.5 })).toThrow(
      '`bufferSize` option to be a positive integer, got `1.5`',
    );
    expect(() => bounded({ strategy: 'drop' as never })).toThrow(
      "Expected the `strategy` option to be one of 'suspend', 'dropping', 'sliding', 'error', got `drop` (string)",
    );
    expect(() => bounded(null as never)).toThrow('Expected the options to be an object, got `null` (null)');
  });

  it('rejects a misspelt option instead of ignoring it', () => {
    expect(() => bounded({ bufferSize: 4, stratgy: 'sliding' } as never)).toThrow(
      new TypeError('Unknown `stratgy` option (known options: bufferSize, strategy)'),
    );
  });

  it('property: sliding and dropping hold at most `bufferSize` events and account for every one', () => {
    const command = fc.constantFrom('push', 'push', 'push', 'pause', 'resume');
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom('sliding' as const, 'dropping' as const),
        fc.array(command, { maxLength: 80 }),
        (bufferSize, strategy, commands) => {
          const source = new Subject<Event>();
          const valve = new Valve();
          const received: Event[] = [];
          let deliveredWhilePaused = 0;
          let completed = false;
          withDemand(valve, source.pipe(bounded({ bufferSize, strategy }))).subscribe({
            next: (event) => {
              if (valve.paused) deliveredWhilePaused += 1;
              received.push(event);
            },
            complete: () => {
              completed = true;
            },
          });
          let produced = 0;
          const push = (isFinal: boolean) => {
            source.next(chunk(produced, String(produced), isFinal));
            produced += 1;
          };
          for (const step of [...commands, 'resume']) {
            if (step === 'push') push(false);
            else if (step === 'pause') valve.pause();
            else {
              const before = received.length;
              valve.resume();
              // A resume drains the queue: at most `bufferSize` events were held.
              expect(received.length - before).toBeLessThanOrEqual(bufferSize);
            }
          }
          valve.pause();
          push(true);
          source.complete();
          const before = received.length;
          valve.resume();
          expect(received.length - before).toBeLessThanOrEqual(bufferSize);
          expect(completed).toBe(true);
          expect(deliveredWhilePaused).toBe(0);
          const dropped = received.reduce((sum, event) => sum + (event.metadata?.dropped ?? 0), 0);
          expect(received.length + dropped).toBe(produced);
          expect(received.map((event) => event.sequence)).toEqual(received.map((_, index) => index));
          expect(received.at(-1)?.isFinal).toBe(true);
          // Each drop count sits right after its gap: original sequence − drops so far = new sequence.
          let dropsSoFar = 0;
          for (const event of received) {
            dropsSoFar += event.metadata?.dropped ?? 0;
            expect(Number(event.content) - dropsSoFar).toBe(event.sequence);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
