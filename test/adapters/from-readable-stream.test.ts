import { lastValueFrom, map, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { fromReadableStream } from '../../src/adapters/from-readable-stream.js';
import { toAsyncIterable } from '../../src/adapters/to-async-iterable.js';
import { Valve } from '../../src/core/demand.js';
import { subscribeWithDemand } from '../../src/core/subscriber-chain.js';
import { sequenced } from '../../src/operators/sequenced.js';
import { macrotask } from '../support/macrotask.js';

/** An endless stream with no queue of its own (highWaterMark 0): its source is pulled once per read(). */
function countingStream() {
  const stats = { pulls: 0, cancelled: [] as unknown[] };
  const stream = new ReadableStream<number>(
    {
      pull(controller) {
        controller.enqueue(stats.pulls);
        stats.pulls += 1;
      },
      cancel(reason) {
        stats.cancelled.push(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, stats };
}

describe('fromReadableStream', () => {
  it('emits the chunks and completes when the stream closes; map + sequenced make chunk events', async () => {
    const stream = new ReadableStream<string>({
      start(controller) {
        controller.enqueue('x');
        controller.enqueue('y');
        controller.close();
      },
    });
    const events = fromReadableStream(stream).pipe(
      map((content) => ({ kind: 'body', content })),
      sequenced(),
    );
    expect(await lastValueFrom(events.pipe(toArray()))).toEqual([
      { sequence: 0, kind: 'body', content: 'x', isFinal: false },
      { sequence: 1, kind: 'body', content: 'y', isFinal: false },
      { sequence: 2, kind: 'end', content: null, isFinal: true },
    ]);
    expect(stream.locked).toBe(false);
  });

  it('errors when the stream errors', async () => {
    const stream = new ReadableStream<number>({
      start(controller) {
        controller.enqueue(1);
        controller.error(new Error('socket reset'));
      },
    });
    await expect(lastValueFrom(fromReadableStream(stream))).rejects.toThrow('socket reset');
  });

  it('reads only while the demand is not paused', async () => {
    const { stream, stats } = countingStream();
    const valve = new Valve();
    const seen: number[] = [];
    const subscription = subscribeWithDemand(fromReadableStream(stream), valve, {
      next: (value) => {
        seen.push(value);
        if (seen.length === 2 || seen.length === 5) valve.pause();
      },
    });
    while (seen.length < 2) await macrotask();
    for (let i = 0; i < 10; i += 1) await macrotask();
    expect(stats.pulls).toBe(2);
    valve.resume();
    while (seen.length < 5) await macrotask();
    for (let i = 0; i < 10; i += 1) await macrotask();
    subscription.unsubscribe();
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(stats.pulls).toBe(5);
    expect(stats.cancelled).toHaveLength(1);
  });

  it('never gets more than bufferSize + 1 ahead of a slow toAsyncIterable consumer, and cancels on break', async () => {
    const { stream, stats } = countingStream();
    let consumed = 0;
    let lead = 0;
    for await (const value of toAsyncIterable(fromReadableStream(stream), { bufferSize: 3 })) {
      consumed = value + 1;
      lead = Math.max(lead, stats.pulls - consumed);
      for (let i = 0; i < 8; i += 1) await macrotask();
      if (consumed === 30) break;
    }
    expect(lead).toBeGreaterThanOrEqual(3);
    expect(lead).toBeLessThanOrEqual(3 + 1);
    expect(stats.cancelled).toHaveLength(1);
  });

  it('cancels the stream on unsubscribe', async () => {
    const { stream, stats } = countingStream();
    expect(await lastValueFrom(fromReadableStream(stream).pipe(take(3), toArray()))).toEqual([0, 1, 2]);
    expect(stats.cancelled).toHaveLength(1);
  });

  it('errors a second subscription to the same (locked) stream', async () => {
    const stream = new ReadableStream<number>();
    const first = fromReadableStream(stream).subscribe();
    await expect(lastValueFrom(fromReadableStream(stream))).rejects.toBeInstanceOf(TypeError);
    first.unsubscribe();
  });

  it('validates its argument', () => {
    expect(() => fromReadableStream('body' as never)).toThrow(
      new TypeError('Expected the `stream` argument to be a ReadableStream, got `body` (string)'),
    );
  });
});
