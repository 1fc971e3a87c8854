import { filter, lastValueFrom, Observable, of, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { toAsyncIterable } from '../../src/adapters/to-async-iterable.js';
import { mapDirect } from '../../src/core/map-direct.js';
import { type DirectSink, directSinkOf } from '../../src/core/subscriber-chain.js';
import { collectAsync as collect } from '../support/collect-async.js';

/** A producer that pushes 1, 2, 3 into a direct sink when one is offered, else through `next`. */
function probe(found: unknown[]): Observable<number> {
  return new Observable<number>((subscriber) => {
    const sink: DirectSink<number> | undefined = directSinkOf(subscriber);
    found.push(sink);
    for (const value of [1, 2, 3]) {
      if (sink) sink.push(value);
      else subscriber.next(value);
    }
    subscriber.complete();
  });
}

describe('mapDirect', () => {
  it('with nothing offered below, is map: values, order, completion', async () => {
    const found: unknown[] = [];
    expect(
      await lastValueFrom(
        probe(found).pipe(
          mapDirect((n) => n * 10),
          toArray(),
        ),
      ),
    ).toEqual([10, 20, 30]);
    expect(found).toEqual([undefined]);
  });

  it('passes the adapter’s queue on to the producer, each value mapped', async () => {
    const found: unknown[] = [];
    expect(await collect(toAsyncIterable(probe(found).pipe(mapDirect((n) => `#${n}`))))).toEqual([
      '#1',
      '#2',
      '#3',
    ]);
    expect(found[0]).toMatchObject({ push: expect.any(Function) });
  });

  it('is not passed through another operator between it and the adapter', async () => {
    const found: unknown[] = [];
    const values = await collect(
      toAsyncIterable(
        probe(found).pipe(
          mapDirect((n) => n + 1),
          filter((n) => n !== 3),
        ),
      ),
    );
    expect(values).toEqual([2, 4]);
    expect(found).toEqual([undefined]);
  });

  it('what project throws errors the stream after the values before it, on both paths', async () => {
    const boom = (n: number) => {
      if (n === 2) throw new Error('boom');
      return n;
    };
    const seen: number[] = [];
    const direct = toAsyncIterable(probe([]).pipe(mapDirect(boom)));
    await expect(
      (async () => {
        for await (const value of direct) seen.push(value);
      })(),
    ).rejects.toThrow('boom');
    expect(seen).toEqual([1]);
    await expect(lastValueFrom(of(1, 2, 3).pipe(mapDirect(boom), toArray()))).rejects.toThrow('boom');
  });
});
