import {
  concat,
  filter,
  finalize,
  map,
  Observable,
  of,
  Subject,
  scan,
  takeWhile,
  tap,
  throwError,
} from 'rxjs';
import { describe, expect, it } from 'vitest';
import { toAsyncIterable } from '../../src/adapters/to-async-iterable.js';
import { sequenced } from '../../src/operators/sequenced.js';
import { collectAsync as collect } from '../support/collect-async.js';
import { demandCounter } from './demand-counter.js';

describe('toAsyncIterable', () => {
  it('yields every value in order, the final chunk event included, then done', async () => {
    const events = of('a', 'b').pipe(
      map((content) => ({ kind: 'stdout', content })),
      sequenced(),
    );
    const iterator = toAsyncIterable(events);
    expect(await collect(iterator)).toEqual([
      { sequence: 0, kind: 'stdout', content: 'a', isFinal: false },
      { sequence: 1, kind: 'stdout', content: 'b', isFinal: false },
      { sequence: 2, kind: 'end', content: null, isFinal: true },
    ]);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('subscribes lazily, on the first next()', async () => {
    const { source, stats } = demandCounter({ count: 3 });
    const iterator = toAsyncIterable(source);
    expect(stats.subscriptions).toBe(0);
    expect(await iterator.next()).toEqual({ done: false, value: 0 });
    expect(stats.subscriptions).toBe(1);
    expect(stats.sawDemand).toBe(true);
  });

  it('pauses a demand-honouring producer at bufferSize waiting values and resumes it at half of that', async () => {
    const { source, stats } = demandCounter({ count: 1000 });
    const iterator = toAsyncIterable(source, { bufferSize: 4 });
    expect(await iterator.next()).toEqual({ done: false, value: 0 });
    expect(stats.produced).toBe(1 + 4); // paused: 4 wait
    const producedAfter: number[] = [];
    for (let taken = 1; taken < 50; taken += 1) {
      expect(await iterator.next()).toEqual({ done: false, value: taken });
      producedAfter.push(stats.produced);
      const waiting = stats.produced - (taken + 1);
      expect(waiting).toBeGreaterThanOrEqual(3); // never drained below the low-water mark (2) + 1
      expect(waiting).toBeLessThanOrEqual(4); // never more than bufferSize ahead
    }
    // Taking value 1 leaves 3 waiting: still paused. Taking value 2 leaves 2 (= floor(4 / 2)):
    // resumed, the producer refills to 4 and is paused again. So it runs every second next().
    expect(producedAfter.slice(0, 6)).toEqual([5, 7, 7, 9, 9, 11]);
    await iterator.return?.();
    expect(stats.teardowns).toBe(1);
    expect(stats.produced).toBe(53);
  });

  it('with bufferSize 1, resumes only once the queue is empty', async () => {
    const { source, stats } = demandCounter({ count: 100 });
    const iterator = toAsyncIterable(source, { bufferSize: 1 });
    for (let taken = 0; taken < 10; taken += 1) {
      expect(await iterator.next()).toEqual({ done: false, value: taken });
      expect(stats.produced).toBe(taken + 2);
    }
  });

  it('with bufferSize 0, the producer reads only while a next() waits', async () => {
    const { source, stats } = demandCounter({ count: 100 });
    const iterator = toAsyncIterable(source, { bufferSize: 0 });
    for (let taken = 0; taken < 10; taken += 1) {
      expect(await iterator.next()).toEqual({ done: false, value: taken });
      expect(stats.produced).toBe(taken + 1);
    }
  });

  it('carries its demand through map, filter, tap, scan and takeWhile', async () => {
    const { source, stats } = demandCounter({ count: 10_000 });
    const piped = source.pipe(
      map((n) => n * 2),
      filter((n) => n % 4 === 0),
      tap(() => undefined),
      scan((sum, n) => sum + n, 0),
      takeWhile(() => true),
    );
    const iterator = toAsyncIterable(piped, { bufferSize: 3 });
    expect(await iterator.next()).toEqual({ done: false, value: 0 });
    expect(stats.sawDemand).toBe(true);
    // filter lets every second value through: 3 buffered + 1 taken = 4 emitted ⇒ 7 or 8 produced
    expect(stats.produced).toBeLessThanOrEqual(8);
    await iterator.return?.();
  });

  it('break unsubscribes (runs the producer teardown) before return() resolves', async () => {
    const { source, stats } = demandCounter({ count: 1_000_000, mode: 'async' });
    const iterator = toAsyncIterable(source);
    let seen = 0;
    for await (const value of iterator) {
      seen = value;
      if (value === 5) break;
    }
    expect(seen).toBe(5);
    expect(stats.teardowns).toBe(1);

    const { source: other, stats: otherStats } = demandCounter({ count: 1_000_000, mode: 'async' });
    const second = toAsyncIterable(other);
    await second.next();
    const returned = second.return?.('bye');
    expect(otherStats.teardowns).toBe(1); // synchronously, before the promise settles
    expect(await returned).toEqual({ done: true, value: 'bye' });
  });

  it('gives done after return(), also to next() calls that were pending, and never subscribes if unused', async () => {
    const subject = new Subject<number>();
    const iterator = toAsyncIterable(subject);
    const pending = iterator.next();
    await iterator.return?.();
    expect(subject.observed).toBe(false);
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(await iterator.next()).toEqual({ done: true, value: undefined });

    let subscribed = false;
    const unused = toAsyncIterable(
      new Observable(() => {
        subscribed = true;
      }),
    );
    await unused.return?.();
    expect(await unused.next()).toEqual({ done: true, value: undefined });
    expect(subscribed).toBe(false);
  });

  it('gives done to a next() made by the producer teardown that return() runs, with values still queued', async () => {
    const subject = new Subject<number>();
    let duringTeardown: Promise<IteratorResult<number>> | undefined;
    const iterator: AsyncIterableIterator<number> = toAsyncIterable(
      subject.pipe(
        finalize(() => {
          duringTeardown = iterator.next();
        }),
      ),
    );
    const first = iterator.next();
    subject.next(1);
    subject.next(2);
    subject.next(3);
    expect(await first).toEqual({ done: false, value: 1 });
    await iterator.return?.();
    expect(await duringTeardown).toEqual({ done: true, value: undefined });
  });

  it('keeps next() usable detached from its iterator, as a callback', async () => {
    const { next } = toAsyncIterable(of('a', 'b'));
    expect(await next()).toEqual({ done: false, value: 'a' });
    expect(await next()).toEqual({ done: false, value: 'b' });
    expect(await next()).toEqual({ done: true, value: undefined });
  });

  it('throw() unsubscribes and rejects with the given error, then gives done', async () => {
    const { source, stats } = demandCounter({ count: 1_000_000, mode: 'async' });
    const iterator = toAsyncIterable(source);
    await iterator.next();
    const boom = new Error('stop');
    const thrown = iterator.throw?.(boom);
    expect(stats.teardowns).toBe(1);
    await expect(thrown).rejects.toBe(boom);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('throws the source error only after every value buffered before it, then gives done', async () => {
    const boom = new Error('boom');
    const iterator = toAsyncIterable(
      concat(
        of(1, 2, 3),
        throwError(() => boom),
      ),
      { bufferSize: 16 },
    );
    expect(await iterator.next()).toEqual({ done: false, value: 1 });
    expect(await iterator.next()).toEqual({ done: false, value: 2 });
    expect(await iterator.next()).toEqual({ done: false, value: 3 });
    await expect(iterator.next()).rejects.toBe(boom);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('resolves next() calls made without awaiting in call order, each with its own value', async () => {
    const subject = new Subject<string>();
    const iterator = toAsyncIterable(subject);
    const calls = [iterator.next(), iterator.next(), iterator.next(), iterator.next()];
    subject.next('a');
    subject.next('b');
    subject.next('c');
    subject.complete();
    expect(await Promise.all(calls)).toEqual([
      { done: false, value: 'a' },
      { done: false, value: 'b' },
      { done: false, value: 'c' },
      { done: true, value: undefined },
    ]);
  });

  it('rejects only the first of several pending next() calls with an error; the others get done', async () => {
    const subject = new Subject<string>();
    const iterator = toAsyncIterable(subject);
    const first = iterator.next();
    const second = iterator.next();
    const third = iterator.next();
    subject.next('a');
    subject.error(new Error('late'));
    expect(await first).toEqual({ done: false, value: 'a' });
    await expect(second).rejects.toThrow('late');
    expect(await third).toEqual({ done: true, value: undefined });
  });

  it('keeps every value of a producer that ignores demand (the buffer grows)', async () => {
    const values = Array.from({ length: 1000 }, (_, index) => index);
    const iterator = toAsyncIterable(of(...values), { bufferSize: 2 });
    expect(await collect(iterator)).toEqual(values);
  });

  it('validates its arguments before subscribing', () => {
    expect(() => toAsyncIterable(of(1), { bufferSize: -1 })).toThrow(
      new TypeError('Expected the `bufferSize` option to be a non-negative integer, got `-1` (number)'),
    );
    expect(() => toAsyncIterable(of(1), { bufferSize: 1.5 })).toThrow(
      'Expected the `bufferSize` option to be a non-negative integer, got `1.5` (number)',
    );
    expect(() => toAsyncIterable(of(1), 'big' as never)).toThrow(
      'Expected the options to be an object, got `big` (string)',
    );
    expect(() => toAsyncIterable([1, 2] as never)).toThrow(
      'Expected the `source` argument to be an Observable, got `[1,2]` (array)',
    );
    expect(() => toAsyncIterable(of(1), { buffer: 4 } as never)).toThrow(
      new TypeError('Unknown `buffer` option (known options: bufferSize, onIgnoredDemand, logger)'),
    );
  });
});
