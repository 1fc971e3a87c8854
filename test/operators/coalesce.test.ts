import fc from 'fast-check';
import { concatMap, from, Observable, Subject, take, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../src/core/chunk.js';
import { type Demand, Valve } from '../../src/core/demand.js';
import { SequenceError } from '../../src/core/errors/sequence-error.js';
import { demandOf } from '../../src/core/subscriber-chain.js';
import { chunkByteLength, coalesce } from '../../src/operators/coalesce.js';
import { withDemand } from '../../src/testing/demand-marbles.js';
import { chunk, chunkLetters } from '../support/chunk.js';
import { newTestScheduler } from '../support/test-scheduler.js';

type Event = ChunkEvent<string | Uint8Array>;

describe('coalesce', () => {
  it('opens a window with its first event and emits it `maxDelayMs` later; quiet time emits nothing', () => {
    newTestScheduler().run(({ chunks, expectObservable, expectSubscriptions, time }) => {
      const source = chunks('-ab----c-d-e----------|', {}, { kind: 'stdout', end: false });
      const v = source.events;
      const maxDelayMs = time('---|');
      const expected = '   ----x-----y---z-------|';
      expectObservable(source.pipe(coalesce({ maxDelayMs }))).toBe(expected, {
        x: [v.a, v.b],
        y: [v.c, v.d],
        z: [v.e],
      });
      expectSubscriptions(source.subscriptions).toBe('^---------------------!');
    });
  });

  it('waits 16 ms by default', () => {
    newTestScheduler().run(({ chunks, expectObservable, expectSubscriptions }) => {
      const source = chunks('-ab', {}, { kind: 'stdout', end: false });
      const v = source.events;
      expectObservable(source.pipe(coalesce())).toBe('- 16ms x', { x: [v.a, v.b] });
      expectSubscriptions(source.subscriptions).toBe('^');
    });
  });

  it('closes a window as soon as it holds `maxItems` events', () => {
    newTestScheduler().run(({ chunks, expectObservable, expectSubscriptions }) => {
      const source = chunks('-abc---d-e-------|', {}, { kind: 'stdout', end: false });
      const v = source.events;
      const expected = '   --x----y------z--|';
      expectObservable(source.pipe(coalesce({ maxDelayMs: 5, maxItems: 2 }))).toBe(expected, {
        x: [v.a, v.b],
        y: [v.c, v.d],
        z: [v.e],
      });
      expectSubscriptions(source.subscriptions).toBe('^----------------!');
    });
  });

  it('closes a window as soon as its contents reach `maxBytes` (UTF-8 bytes, Uint8Array bytes)', () => {
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const v = {
        a: chunk(0, 'é'),
        b: chunk(1, 'ab'),
        c: chunk(2, '😀'),
        d: chunk(3, new Uint8Array(3)),
        e: chunk(4, 'x'),
        f: chunk(5, 'y'),
      };
      const source = cold('-abcdef----|', v);
      const expected = '   --xy-z----w|';
      expectObservable(source.pipe(coalesce({ maxDelayMs: 4, maxBytes: 4 }))).toBe(expected, {
        x: [v.a, v.b],
        y: [v.c],
        z: [v.d, v.e],
        w: [v.f],
      });
      expectSubscriptions(source.subscriptions).toBe('^----------!');
    });
  });

  it('emits the batch holding the final event when the source completes right after it', () => {
    newTestScheduler().run(({ chunks, expectObservable, expectSubscriptions }) => {
      const source = chunks('-a-b-(c|)', {}, { kind: 'stdout', end: false, final: 'c' });
      const v = source.events;
      expectObservable(source.pipe(coalesce({ maxDelayMs: 10 }))).toBe('-----(x|)', { x: [v.a, v.b, v.c] });
      expectSubscriptions(source.subscriptions).toBe('^----!');
    });
  });

  it('errors naming joinRuns() when the source goes on after its final event, after what it held before it', () => {
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = { sequence: 0, kind: 'stdout', content: 'one', isFinal: false };
      const b = { sequence: 1, kind: 'exit', content: null, isFinal: true };
      const c = { sequence: 0, kind: 'stdout', content: 'two', isFinal: false };
      const source = cold('-a-b-c-|', { a, b, c });
      const error = new SequenceError({ rule: 'final-before-complete', expected: undefined, received: 0 });
      expectObservable(source.pipe(coalesce({ maxDelayMs: 10 }))).toBe('-----(x#)', { x: [a] }, error);
      expectSubscriptions(source.subscriptions).toBe('^----!');
    });
  });

  it('emits the pending batch when the source completes', () => {
    newTestScheduler().run(({ chunks, expectObservable, expectSubscriptions }) => {
      const source = chunks('-a-b-|', {}, { kind: 'stdout', end: false });
      const v = source.events;
      expectObservable(source.pipe(coalesce({ maxDelayMs: 10 }))).toBe('-----(x|)', { x: [v.a, v.b] });
      expectSubscriptions(source.subscriptions).toBe('^----!');
    });
  });

  it('emits the pending batch before an error', () => {
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const v = chunkLetters('abc');
      const source = cold('-a---bc#', v, new Error('boom'));
      const expected = '   ----x--(y#)';
      expectObservable(source.pipe(coalesce({ maxDelayMs: 3 }))).toBe(
        expected,
        { x: [v.a], y: [v.b, v.c] },
        new Error('boom'),
      );
      expectSubscriptions(source.subscriptions).toBe('^------!');
    });
  });

  it('clears its timer and drops the pending batch when unsubscribed', () => {
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b------', chunkLetters('ab'));
      const unsub = '      ----!';
      expectObservable(source.pipe(coalesce({ maxDelayMs: 5 })), unsub).toBe('-----');
      expectSubscriptions(source.subscriptions).toBe('^---!');
    });
    const scheduler = new VirtualTimeScheduler();
    const source = new Subject<Event>();
    const subscription = source.pipe(coalesce({ scheduler })).subscribe();
    source.next(chunk(0, 'a'));
    expect(scheduler.actions).toHaveLength(1);
    subscription.unsubscribe();
    expect(scheduler.actions).toHaveLength(0);
  });

  it('passes the consumer demand upstream unchanged', () => {
    const seen: Array<Demand | undefined> = [];
    const probe = new Observable<Event>((subscriber) => {
      seen.push(demandOf(subscriber));
      subscriber.complete();
    });
    const valve = new Valve();
    withDemand(valve, probe.pipe(coalesce())).subscribe();
    probe.pipe(coalesce()).subscribe();
    expect(seen).toEqual([valve, undefined]);
  });

  it('stops listening to a synchronous source when unsubscribed', () => {
    const sideEffects: number[] = [];
    const synchronous = new Observable<Event>((subscriber) => {
      for (let i = 0; !subscriber.closed && i < 10; i += 1) {
        sideEffects.push(i);
        subscriber.next(chunk(i, String(i)));
      }
    });
    synchronous.pipe(coalesce({ maxItems: 1 }), take(3)).subscribe();
    expect(sideEffects).toEqual([0, 1, 2]);
  });

  it.each([
    ['maxItems', { maxItems: 30_000 }],
    ['maxBytes', { maxBytes: 30_000 * 8 }],
  ] as const)('floods: 100 000 events in one frame make exactly one batch per %s window', (_name, limit) => {
    const flood = Array.from({ length: 100_000 }, (_, index) =>
      chunk(index, `${String(index % 1e7).padStart(7, '0')}\n`),
    );
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      // At frame 1 the source emits all 100 000 events synchronously (8 bytes each).
      const trigger = cold('-x 20ms |');
      const source = trigger.pipe(concatMap(() => from(flood)));
      // Three full windows close at once; the last 10 000 events wait for the timer.
      const expected = '   -(abc) 5ms d 10ms |';
      expectObservable(source.pipe(coalesce({ maxDelayMs: 10, ...limit }))).toBe(expected, {
        a: flood.slice(0, 30_000),
        b: flood.slice(30_000, 60_000),
        c: flood.slice(60_000, 90_000),
        d: flood.slice(90_000),
      });
      expectSubscriptions(trigger.subscriptions).toBe('^ 21ms !');
    });
  });

  it('validates its options before anything is subscribed', () => {
    expect(() => coalesce({ maxDelayMs: -1 })).toThrow(
      new TypeError('Expected the `maxDelayMs` option to be a non-negative finite number, got `-1` (number)'),
    );
    expect(() => coalesce({ maxItems: 0 })).toThrow(
      'Expected the `maxItems` option to be a positive integer or Infinity, got `0` (number)',
    );
    expect(() => coalesce({ maxBytes: '1k' as never })).toThrow(
      'Expected the `maxBytes` option to be a positive integer or Infinity, got `1k` (string)',
    );
    expect(() => coalesce({ scheduler: null as never })).toThrow(
      'Expected the `scheduler` option to be a SchedulerLike, got `null` (null)',
    );
  });

  it('caps maxDelayMs at the longest timer delay, and rejects unknown options', () => {
    expect(() => coalesce({ maxDelayMs: 2 ** 31 })).toThrow(
      new TypeError(
        'Expected the `maxDelayMs` option to be a non-negative finite number up to 2147483647, got `2147483648` (number)',
      ),
    );
    expect(() => coalesce({ maxDelayMs: 2_147_483_647 })).not.toThrow();
    expect(() => coalesce({ maxDelay: 16 } as never)).toThrow(
      new TypeError('Unknown `maxDelay` option (known options: maxDelayMs, maxItems, maxBytes, scheduler)'),
    );
  });

  it('measures string contents in UTF-8 bytes, like Buffer.byteLength', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(chunkByteLength(text)).toBe(Buffer.byteLength(text, 'utf8'));
      }),
    );
    expect(chunkByteLength('\ud800x')).toBe(4);
    expect(chunkByteLength(new Uint16Array(3))).toBe(6);
    expect(chunkByteLength(new ArrayBuffer(5))).toBe(5);
    expect(chunkByteLength(null)).toBe(0);
    expect(chunkByteLength({ length: 9 })).toBe(0);
  });
});
