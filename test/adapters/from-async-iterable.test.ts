import { lastValueFrom, map, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { fromAsyncIterable } from '../../src/adapters/from-async-iterable.js';
import { toAsyncIterable } from '../../src/adapters/to-async-iterable.js';
import { Valve } from '../../src/core/demand.js';
import { subscribeWithDemand } from '../../src/core/subscriber-chain.js';
import { sequenced } from '../../src/operators/sequenced.js';
import { macrotask } from '../support/macrotask.js';

/** An endless async iterable that counts the next() calls made on it and whether return() came. */
function countingIterable() {
  const stats = { pulls: 0, inFlight: 0, maxInFlight: 0, returned: 0 };
  const iterable: AsyncIterable<number> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        const value = stats.pulls;
        stats.pulls += 1;
        stats.inFlight += 1;
        stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
        await macrotask();
        stats.inFlight -= 1;
        return { done: false, value };
      },
      return: async () => {
        stats.returned += 1;
        return { done: true, value: undefined };
      },
    }),
  };
  return { iterable, stats };
}

async function* letters() {
  yield 'a';
  yield 'b';
  yield 'c';
}

describe('fromAsyncIterable', () => {
  it('emits the values and completes; map + sequenced make chunk events of them', async () => {
    const events = fromAsyncIterable(letters()).pipe(
      map((content) => ({ kind: 'line', content })),
      sequenced(),
    );
    expect(await lastValueFrom(events.pipe(toArray()))).toEqual([
      { sequence: 0, kind: 'line', content: 'a', isFinal: false },
      { sequence: 1, kind: 'line', content: 'b', isFinal: false },
      { sequence: 2, kind: 'line', content: 'c', isFinal: false },
      { sequence: 3, kind: 'end', content: null, isFinal: true },
    ]);
  });

  it('propagates a rejected next() as an error', async () => {
    async function* failing() {
      yield 1;
      throw new Error('read failed');
    }
    const seen: number[] = [];
    const error = await new Promise((resolve) => {
      fromAsyncIterable(failing()).subscribe({ next: (value) => seen.push(value), error: resolve });
    });
    expect(seen).toEqual([1]);
    expect(error).toEqual(new Error('read failed'));
  });

  it('pulls one value at a time and only while the demand is not paused', async () => {
    const { iterable, stats } = countingIterable();
    const valve = new Valve();
    const seen: number[] = [];
    const subscription = subscribeWithDemand(fromAsyncIterable(iterable), valve, {
      next: (value) => {
        seen.push(value);
        if (seen.length === 3) valve.pause();
      },
    });
    while (seen.length < 3) await macrotask();
    for (let i = 0; i < 10; i += 1) await macrotask();
    expect(stats.pulls).toBe(3);
    expect(stats.maxInFlight).toBe(1);
    valve.resume();
    while (seen.length < 6) await macrotask();
    subscription.unsubscribe();
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
    expect(stats.returned).toBe(1);
  });

  it('never gets more than bufferSize + 1 ahead of a slow toAsyncIterable consumer', async () => {
    const { iterable, stats } = countingIterable();
    const iterator = toAsyncIterable(fromAsyncIterable(iterable).pipe(map((n) => n + 1)), { bufferSize: 4 });
    let consumed = 0;
    let lead = 0;
    for await (const value of iterator) {
      consumed = value;
      lead = Math.max(lead, stats.pulls - consumed);
      for (let i = 0; i < 8; i += 1) await macrotask();
      // measured again once the producer had time to refill (it resumes at half the buffer)
      lead = Math.max(lead, stats.pulls - consumed);
      if (consumed === 40) break;
    }
    expect(lead).toBeGreaterThanOrEqual(4);
    expect(lead).toBeLessThanOrEqual(4 + 1);
    expect(stats.returned).toBe(1);
  });

  it('pulls as fast as the iterator answers without demand, and calls return() on unsubscribe', async () => {
    const { iterable, stats } = countingIterable();
    const values = await lastValueFrom(fromAsyncIterable(iterable).pipe(take(20), toArray()));
    expect(values).toEqual(Array.from({ length: 20 }, (_, index) => index));
    expect(stats.returned).toBe(1);
  });

  it('does not call return() on an iterator that finished by itself', async () => {
    let returned = 0;
    const iterable: AsyncIterable<number> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => ({ done: true, value: undefined }),
        return: async () => {
          returned += 1;
          return { done: true, value: undefined };
        },
      }),
    };
    expect(await lastValueFrom(fromAsyncIterable(iterable).pipe(toArray()))).toEqual([]);
    expect(returned).toBe(0);
  });

  it('errors when next() throws synchronously, and ignores a failing return()', async () => {
    const iterable: AsyncIterable<number> = {
      [Symbol.asyncIterator]: () => ({
        next: () => {
          throw new Error('sync next');
        },
      }),
    };
    await expect(lastValueFrom(fromAsyncIterable(iterable))).rejects.toThrow('sync next');

    const rejectingReturn: AsyncIterable<number> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => ({ done: false, value: 1 }),
        return: () => Promise.reject(new Error('return failed')),
      }),
    };
    expect(await lastValueFrom(fromAsyncIterable(rejectingReturn).pipe(take(1)))).toBe(1);
  });

  it('validates its argument', () => {
    expect(() => fromAsyncIterable([1, 2] as never)).toThrow(
      new TypeError('Expected the `iterable` argument to be an AsyncIterable, got `[1,2]` (array)'),
    );
  });
});
