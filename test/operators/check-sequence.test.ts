import fc from 'fast-check';
import { from, lastValueFrom, map, of, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../src/core/chunk.js';
import { isSequenceError, SequenceError } from '../../src/core/errors/sequence-error.js';
import { checkSequence } from '../../src/operators/check-sequence.js';
import { sequenced } from '../../src/operators/sequenced.js';
import { chunk } from '../support/chunk.js';
import { newTestScheduler } from '../support/test-scheduler.js';

const ev = (sequence: number, isFinal = false) => chunk(sequence, `c${sequence}`, isFinal, { kind: 'body' });

async function run(events: ChunkEvent<string>[]): Promise<{ delivered: number[]; error?: SequenceError }> {
  const delivered: number[] = [];
  try {
    await lastValueFrom(
      from(events).pipe(
        checkSequence(),
        map((e) => delivered.push(e.sequence)),
        toArray(),
      ),
    );
    return { delivered };
  } catch (error) {
    return { delivered, error: error as SequenceError };
  }
}

describe('checkSequence', () => {
  it('passes a valid stream through unchanged and completes with the source', () => {
    newTestScheduler().run(({ chunks, expectChunks, expectSubscriptions }) => {
      const source = chunks('-a-b-c-|', {}, { kind: 'body', final: 'c' });
      expectChunks(source.pipe(checkSequence())).toBe('-a-b-c-|', {}, { kind: 'body', final: 'c' });
      expectSubscriptions(source.subscriptions).toBe('^------!');
    });
    newTestScheduler().run(({ chunks, expectChunks }) => {
      expectChunks(chunks('-a-b-|').pipe(checkSequence())).toBe('-a-b-|');
    });
  });

  it('errors when the first event is not sequence 0', () => {
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-|', { a: ev(1) });
      expectObservable(source.pipe(checkSequence())).toBe(
        '-#',
        undefined,
        new SequenceError({ rule: 'start', expected: 0, received: 1 }),
      );
      expectSubscriptions(source.subscriptions).toBe('^!');
    });
  });

  it('errors on a gap, naming the missing numbers', async () => {
    const { delivered, error } = await run([ev(0), ev(1), ev(4, true)]);
    expect(delivered).toEqual([0, 1]);
    expect(error?.message).toBe('Sequence gap: expected 2, received 4 (2..3 are missing)');
    expect(error?.info).toEqual({ rule: 'gap', expected: 2, received: 4 });
  });

  it('errors on a duplicate and on a reorder', async () => {
    expect((await run([ev(0), ev(1), ev(1)])).error?.info?.rule).toBe('duplicate');
    const reorder = await run([ev(0), ev(1), ev(2), ev(0)]);
    expect(reorder.error?.info?.rule).toBe('order');
    expect(reorder.error?.message).toBe('Sequence out of order: expected 3, received 0');
  });

  it('forwards the final event at once but still catches an event that comes after it, naming joinRuns()', () => {
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b--c-|', { a: ev(0), b: ev(1, true), c: ev(2) });
      expectObservable(source.pipe(checkSequence())).toBe(
        '-a-b--#',
        { a: ev(0), b: ev(1, true) },
        new SequenceError({ rule: 'final-before-complete', expected: undefined, received: 2 }),
      );
      expectSubscriptions(source.subscriptions).toBe('^-----!');
    });
  });

  it('errors when the source completes without a final event, unless told not to', async () => {
    const { error } = await run([ev(0), ev(1)]);
    expect(error?.info?.rule).toBe('missing-final');
    expect(error?.message).toBe('Stream completed without a final event (expected sequence 2)');
    const relaxed = await lastValueFrom(
      from([ev(0), ev(1)]).pipe(checkSequence({ requireFinal: false }), toArray()),
    );
    expect(relaxed).toHaveLength(2);
  });

  it('gives errors a stable code and a cross-realm guard', async () => {
    const { error } = await run([ev(3)]);
    expect(isSequenceError(error)).toBe(true);
    expect(error?.code).toBe('STREAM_SEQUENCE');
    expect(error?.name).toBe('SequenceError');
  });

  it('stops listening to a synchronous source when unsubscribed', () => {
    let pulled = 0;
    const source = from([0, 1, 2, 3, 4, 5, 6, 7]).pipe(
      map((n) => {
        pulled += 1;
        return ev(n, n === 7);
      }),
    );
    source.pipe(checkSequence(), take(2)).subscribe();
    expect(pulled).toBe(2);
  });

  it('rejects a bad option before subscribe, naming it', () => {
    expect(() => checkSequence({ requireFinal: 'yes' as unknown as boolean })).toThrow(
      'Expected the `requireFinal` option to be a boolean, got `yes` (string)',
    );
    expect(() => checkSequence(null as never)).toThrow(
      new TypeError('Expected the options to be an object, got `null` (null)'),
    );
    expect(() => checkSequence('strict' as never)).toThrow(
      new TypeError('Expected the options to be an object, got `strict` (string)'),
    );
    expect(() => checkSequence({ requiredFinal: false } as never)).toThrow(
      new TypeError('Unknown `requiredFinal` option (known options: requireFinal, start)'),
    );
    expect(() => checkSequence({ start: -1 })).toThrow(
      new TypeError('Expected the `start` option to be a non-negative integer, got `-1` (number)'),
    );
  });

  it('checks from `start` when a follower resumes mid-stream', () => {
    const events = [5, 6, 7].map((sequence) => ({
      sequence,
      kind: 'stdout',
      content: 'x',
      isFinal: sequence === 7,
    }));
    const seen: number[] = [];
    from(events)
      .pipe(checkSequence({ start: 5 }))
      .subscribe((event) => seen.push(event.sequence));
    expect(seen).toEqual([5, 6, 7]);
    let error: unknown;
    from(events)
      .pipe(checkSequence({ start: 4 }))
      .subscribe({ error: (e: unknown) => (error = e) });
    expect((error as Error).message).toBe('Sequence must start at 4, received 5');
  });

  describe('properties', () => {
    const inputs = fc.array(
      fc.record({ kind: fc.constantFrom('stdout', 'stderr', 'body'), content: fc.string() }),
      { maxLength: 50 },
    );

    it('checkSequence(sequenced(x)) never errors and preserves every input', async () => {
      await fc.assert(
        fc.asyncProperty(inputs, fc.boolean(), async (items, lastIsFinal) => {
          const source = items.map((item, index) => ({
            ...item,
            isFinal: lastIsFinal && index === items.length - 1,
          }));
          const out = await lastValueFrom(from(source).pipe(sequenced(), checkSequence(), toArray()));
          expect(out.map((e) => e.sequence)).toEqual(out.map((_, i) => i));
          expect(out.filter((e) => e.isFinal)).toHaveLength(1);
          expect(out.at(-1)?.isFinal).toBe(true);
          expect(out.slice(0, items.length).map((e) => e.content)).toEqual(items.map((i) => i.content));
        }),
      );
    });

    it('catches any gap, duplicate or late chunk injected into a valid stream', async () => {
      const corruption = fc.oneof(
        fc.record({ type: fc.constant('gap' as const), at: fc.nat(), skip: fc.integer({ min: 1, max: 5 }) }),
        fc.record({ type: fc.constant('duplicate' as const), at: fc.nat() }),
        fc.record({ type: fc.constant('late' as const) }),
        fc.record({ type: fc.constant('swap' as const), at: fc.nat() }),
      );
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 2, max: 40 }), corruption, async (length, fault) => {
          const valid = Array.from({ length }, (_, i) => ev(i, i === length - 1));
          let broken: ChunkEvent<string>[];
          const at = 'at' in fault ? fault.at % (length - 1) : 0;
          switch (fault.type) {
            case 'gap':
              broken = [
                ...valid.slice(0, at + 1),
                ...valid.slice(at + 1).map((e) => ({ ...e, sequence: e.sequence + fault.skip })),
              ];
              break;
            case 'duplicate':
              broken = [...valid.slice(0, at + 1), valid[at]!, ...valid.slice(at + 1)];
              break;
            case 'late':
              broken = [...valid, ev(length)];
              break;
            case 'swap':
              broken = [...valid];
              [broken[at], broken[at + 1]] = [broken[at + 1]!, broken[at]!];
              break;
          }
          const { error } = await run(broken);
          expect(isSequenceError(error)).toBe(true);
        }),
      );
    });
  });

  it('works on an ordinary of() stream of one final event', async () => {
    await expect(lastValueFrom(of(ev(0, true)).pipe(checkSequence()))).resolves.toEqual(ev(0, true));
  });
});
