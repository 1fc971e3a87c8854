import { concat, map, of, Subject, throwError } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onChunk } from '../../src/adapters/on-chunk.js';
import type { ChunkEvent } from '../../src/core/chunk.js';
import { sequenced } from '../../src/operators/sequenced.js';
import { macrotask } from '../support/macrotask.js';
import { demandCounter } from './demand-counter.js';

const lines = (...contents: string[]) =>
  of(...contents).pipe(
    map((content) => ({ kind: 'stdout', content })),
    sequenced<string>(),
  );

describe('onChunk', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('gives each chunk to the callback in order and resolves with the final event', async () => {
    const seen: ChunkEvent<string>[] = [];
    const result = await onChunk(lines('a', 'b'), (event) => {
      seen.push(event);
    });
    expect(seen.map((event) => event.content)).toEqual(['a', 'b', null]);
    expect(result).toEqual({ sequence: 2, kind: 'end', content: null, isFinal: true });
  });

  it('resolves with undefined when the source completes without a value', async () => {
    expect(await onChunk(of(), () => undefined)).toBeUndefined();
  });

  it('runs the callback one chunk at a time, awaiting its promise', async () => {
    let running = 0;
    let overlap = 0;
    const order: number[] = [];
    await onChunk(of(1, 2, 3, 4, 5), async (value) => {
      running += 1;
      overlap = Math.max(overlap, running);
      await macrotask();
      order.push(value);
      running -= 1;
    });
    expect(overlap).toBe(1);
    expect(order).toEqual([1, 2, 3, 4, 5]);
  });

  it('paces a demand-honouring producer while the callback is slow', async () => {
    const { source, stats } = demandCounter({ count: 200, mode: 'async' });
    let consumed = 0;
    let lead = 0;
    await onChunk(
      source,
      async () => {
        consumed += 1;
        lead = Math.max(lead, stats.produced - consumed);
        for (let i = 0; i < 5; i += 1) await macrotask();
      },
      { bufferSize: 4 },
    );
    expect(consumed).toBe(200);
    expect(lead).toBeGreaterThanOrEqual(3); // the producer did run ahead…
    expect(lead).toBeLessThanOrEqual(4 + 1); // …but never more than bufferSize (+1 in flight)
  });

  it('reports a throwing or rejecting callback to onError with the chunk, and goes on', async () => {
    const onError = vi.fn();
    const handled: (string | null)[] = [];
    const result = await onChunk(
      lines('ok', 'throw', 'reject', 'ok again'),
      (event) => {
        if (event.content === 'throw') throw new Error('sync failure');
        if (event.content === 'reject') return Promise.reject(new Error('async failure'));
        handled.push(event.content);
        return undefined;
      },
      { onError },
    );
    expect(handled).toEqual(['ok', 'ok again', null]);
    expect(onError).toHaveBeenCalledTimes(2);
    expect(onError.mock.calls[0]?.[0]).toEqual(new Error('sync failure'));
    expect(onError.mock.calls[0]?.[1]).toMatchObject({ sequence: 1, content: 'throw' });
    expect(onError.mock.calls[1]?.[0]).toEqual(new Error('async failure'));
    expect(onError.mock.calls[1]?.[1]).toMatchObject({ sequence: 2, content: 'reject' });
    expect(result).toEqual(await onChunk(lines('ok', 'throw', 'reject', 'ok again'), () => undefined));
  });

  it('reports to console.error by default, and survives an onError that throws', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const result = await onChunk(of(1, 2), (value) => {
      if (value === 1) throw new Error('bad callback');
    });
    expect(result).toBe(2);
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(consoleError.mock.calls[0]).toContainEqual(new Error('bad callback'));

    const seen: number[] = [];
    const again = await onChunk(
      of(1, 2, 3),
      (value) => {
        seen.push(value);
        throw new Error(`bad ${value}`);
      },
      {
        onError: () => {
          throw new Error('bad onError');
        },
      },
    );
    expect(seen).toEqual([1, 2, 3]);
    expect(again).toBe(3);
  });

  it('rejects with the source error after every chunk before it went through the callback', async () => {
    const boom = new Error('boom');
    const seen: number[] = [];
    const promise = onChunk(
      concat(
        of(1, 2, 3),
        throwError(() => boom),
      ),
      async (value) => {
        await macrotask();
        seen.push(value);
      },
    );
    await expect(promise).rejects.toBe(boom);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('cancels on abort: unsubscribes at once and rejects with the reason', async () => {
    const { source, stats } = demandCounter({ count: 1_000_000, mode: 'async' });
    const controller = new AbortController();
    let seen = 0;
    const promise = onChunk(
      source,
      (value) => {
        seen = value;
        if (value === 10) controller.abort(new Error('enough'));
      },
      { signal: controller.signal },
    );
    await expect(promise).rejects.toThrow('enough');
    expect(seen).toBe(10);
    expect(stats.teardowns).toBe(1);
    expect(stats.produced).toBeLessThan(10 + 16 + 2);
  });

  it('tears the producer down synchronously in the abort event', async () => {
    const subject = new Subject<number>();
    const controller = new AbortController();
    const promise = onChunk(subject, () => undefined, { signal: controller.signal });
    expect(subject.observed).toBe(true);
    controller.abort();
    expect(subject.observed).toBe(false);
    await expect(promise).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('does not subscribe when the signal is already aborted', async () => {
    const subject = new Subject<number>();
    const promise = onChunk(subject, () => undefined, { signal: AbortSignal.abort(new Error('early')) });
    expect(subject.observed).toBe(false);
    await expect(promise).rejects.toThrow('early');
  });

  it('validates its arguments synchronously, before subscribing', () => {
    const subject = new Subject<number>();
    expect(() => onChunk(subject, 'log' as never)).toThrow(
      new TypeError('Expected the `callback` argument to be a function, got `log` (string)'),
    );
    expect(() => onChunk(subject, () => undefined, { bufferSize: -2 })).toThrow(
      'Expected the `bufferSize` option to be a non-negative integer, got `-2` (number)',
    );
    expect(() => onChunk(subject, () => undefined, { onError: 5 as never })).toThrow(
      'Expected the `onError` option to be a function, got `5` (number)',
    );
    expect(() => onChunk(subject, () => undefined, { signal: {} as never })).toThrow(
      'Expected the `signal` option to be an AbortSignal, got `{}` (object)',
    );
    expect(() => onChunk(subject, () => undefined, { highWaterMark: 4 } as never)).toThrow(
      new TypeError(
        'Unknown `highWaterMark` option (known options: bufferSize, onError, signal, onIgnoredDemand, logger)',
      ),
    );
    expect(subject.observed).toBe(false);
  });
});
