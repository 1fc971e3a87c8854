import { concat, filter, map, Observable, of, Subject, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { toReadableStream } from '../../src/adapters/to-readable-stream.js';
import { sequenced } from '../../src/operators/sequenced.js';
import { macrotask } from '../support/macrotask.js';
import { demandCounter } from './demand-counter.js';

/** Node's ReadableStream is async-iterable; TypeScript's DOM lib does not say so. */
const iterate = <T>(stream: ReadableStream<T>) => stream as unknown as AsyncIterable<T>;

describe('toReadableStream', () => {
  it('enqueues every value in order and closes after the final event', async () => {
    const events = of('a', 'b').pipe(
      map((content) => ({ kind: 'stdout', content })),
      sequenced(),
    );
    const received: unknown[] = [];
    for await (const event of iterate(toReadableStream(events))) received.push(event);
    expect(received).toEqual([
      { sequence: 0, kind: 'stdout', content: 'a', isFinal: false },
      { sequence: 1, kind: 'stdout', content: 'b', isFinal: false },
      { sequence: 2, kind: 'end', content: null, isFinal: true },
    ]);
  });

  it('pulls as demand: the producer fills highWaterMark, then waits for reads', async () => {
    const { source, stats } = demandCounter({ count: 1000 });
    const stream = toReadableStream(source.pipe(map((n) => n * 10)), { highWaterMark: 4 });
    await macrotask();
    expect(stats.sawDemand).toBe(true);
    expect(stats.produced).toBe(4);
    const reader = stream.getReader();
    for (let read = 1; read <= 20; read += 1) {
      expect(await reader.read()).toEqual({ done: false, value: (read - 1) * 10 });
      await macrotask();
      expect(stats.produced).toBe(4 + read);
    }
    await reader.cancel();
  });

  it('with highWaterMark 0, the producer reads only while a read() is pending', async () => {
    const { source, stats } = demandCounter({ count: 1000 });
    const stream = toReadableStream(source, { highWaterMark: 0 });
    await macrotask();
    expect(stats.subscriptions).toBe(0);
    const reader = stream.getReader();
    for (let read = 1; read <= 10; read += 1) {
      expect(await reader.read()).toEqual({ done: false, value: read - 1 });
      await macrotask();
      expect(stats.produced).toBe(read);
    }
    await reader.cancel();
  });

  it('cancel() unsubscribes (runs the producer teardown) before its promise settles', async () => {
    const { source, stats } = demandCounter({ count: 1_000_000, mode: 'async' });
    const reader = toReadableStream(source).getReader();
    await reader.read();
    let tornDownFirst: boolean | undefined;
    await reader.cancel(new Error('done with it')).then(() => {
      tornDownFirst = stats.teardowns === 1;
    });
    expect(tornDownFirst).toBe(true);
    const produced = stats.produced;
    await macrotask();
    await macrotask();
    expect(stats.produced).toBe(produced);
  });

  it('cancels the producer when for await breaks out of the stream', async () => {
    const { source, stats } = demandCounter({ count: 1_000_000, mode: 'async' });
    for await (const value of iterate(toReadableStream(source.pipe(filter((n) => n % 2 === 0))))) {
      if (value >= 10) break;
    }
    expect(stats.teardowns).toBe(1);
  });

  it('errors the stream with the source error', async () => {
    const boom = new Error('boom');
    const reader = toReadableStream(
      concat(
        of(1),
        throwError(() => boom),
      ),
      { highWaterMark: 0 },
    ).getReader();
    expect(await reader.read()).toEqual({ done: false, value: 1 });
    await expect(reader.read()).rejects.toBe(boom);
  });

  it('delivers values a reader is waiting for and closes on completion', async () => {
    const subject = new Subject<string>();
    const reader = toReadableStream(subject).getReader();
    const first = reader.read();
    await macrotask();
    subject.next('x');
    expect(await first).toEqual({ done: false, value: 'x' });
    subject.complete();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });

  it('does not subscribe after the stream was cancelled before its first pull', async () => {
    let subscribed = false;
    const stream = toReadableStream(
      new Observable(() => {
        subscribed = true;
      }),
      { highWaterMark: 0 },
    );
    await stream.cancel();
    await macrotask();
    expect(subscribed).toBe(false);
  });

  it('validates its arguments before anything subscribes', () => {
    expect(() => toReadableStream(of(1), { highWaterMark: -1 })).toThrow(
      new TypeError('Expected the `highWaterMark` option to be a non-negative integer, got `-1` (number)'),
    );
    expect(() => toReadableStream(null as never)).toThrow(
      'Expected the `source` argument to be an Observable, got `null` (null)',
    );
    expect(() => toReadableStream(of(1), { bufferSize: 4 } as never)).toThrow(
      new TypeError('Unknown `bufferSize` option (known options: highWaterMark, onIgnoredDemand, logger)'),
    );
  });
});
