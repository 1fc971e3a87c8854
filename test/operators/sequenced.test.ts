import { map, of, Subject, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ChunkInput } from '../../src/core/chunk.js';
import { SequenceError } from '../../src/core/errors/sequence-error.js';
import { sequenced } from '../../src/operators/sequenced.js';
import { chunk } from '../support/chunk.js';
import { newTestScheduler } from '../support/test-scheduler.js';

const line = (content: string, extra: Partial<ChunkInput<string>> = {}): ChunkInput<string> => ({
  kind: 'stdout',
  content,
  ...extra,
});
const event = (sequence: number, content: string | null, isFinal = false, kind = 'stdout') =>
  chunk(sequence, content, isFinal, { kind });

describe('sequenced', () => {
  it('stamps contiguous sequence numbers from 0 and appends the null sentinel on completion', () => {
    newTestScheduler().run(({ cold, expectChunks, expectSubscriptions }) => {
      const source = cold('-a--b-c--|', { a: line('1\n'), b: line('2\n'), c: line('3\n') });
      const subs = '       ^--------!';
      const expected = '   -a--b-c--|';
      expectChunks(source.pipe(sequenced())).toBe(
        expected,
        { a: '1\n', b: '2\n', c: '3\n' },
        { kind: 'stdout' },
      );
      expectSubscriptions(source.subscriptions).toBe(subs);
    });
  });

  it('emits a single null final event for a stream that produced nothing', () => {
    newTestScheduler().run(({ cold, expectChunks, expectSubscriptions }) => {
      const source = cold<ChunkInput<string>>('----|');
      expectChunks(source.pipe(sequenced())).toBe('----|');
      expectSubscriptions(source.subscriptions).toBe('^---!');
    });
  });

  it('emits an input marked final as the last event when the source completes right after it', () => {
    newTestScheduler().run(({ cold, expectChunks, expectSubscriptions }) => {
      const source = cold('-a-(b|)', { a: line('1\n'), b: line('done\n', { isFinal: true }) });
      expectChunks(source.pipe(sequenced())).toBe(
        '-a-(b|)',
        { a: '1\n', b: 'done\n' },
        { kind: 'stdout', final: 'b' },
      );
      expectSubscriptions(source.subscriptions).toBe('^--!');
    });
  });

  it('errors naming joinRuns() when the source goes on after its final input, never completing early', () => {
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      // Two runs flattened by concatMap: the first one's final event, then the second one's first.
      const source = cold('-a-b-c-|', {
        a: line('1\n'),
        b: line('exit', { isFinal: true }),
        c: { sequence: 0, kind: 'stdout', content: 'two\n', isFinal: false },
      });
      const error = new SequenceError({ rule: 'final-before-complete', expected: undefined, received: 0 });
      expectObservable(source.pipe(sequenced())).toBe('-a---#', { a: event(0, '1\n') }, error);
      expectSubscriptions(source.subscriptions).toBe('^----!');
      expect(error.message).toContain('add joinRuns() after them');
    });
  });

  it('passes errors through without a sentinel, after the events before them', () => {
    newTestScheduler().run(({ cold, expectChunks, expectSubscriptions }) => {
      const source = cold('-a--#', { a: line('partial') }, new Error('boom'));
      expectChunks(source.pipe(sequenced())).toBe(
        '-a--#',
        { a: 'partial' },
        { kind: 'stdout', error: new Error('boom') },
      );
      expectSubscriptions(source.subscriptions).toBe('^---!');
    });
  });

  it('keeps metadata and uses the configured sentinel kind and metadata', () => {
    newTestScheduler().run(({ cold, expectChunks }) => {
      const source = cold('-a|', { a: line('x', { metadata: { partial: true } }) });
      expectChunks(source.pipe(sequenced({ finalKind: 'exit', finalMetadata: { reason: 'done' } }))).toBe(
        '-a|',
        { a: 'x' },
        {
          kind: 'stdout',
          metadata: { a: { partial: true } },
          end: { kind: 'exit', metadata: { reason: 'done' } },
        },
      );
    });
  });

  it('never holds an event back: each one is emitted in the frame it arrives', () => {
    newTestScheduler().run(({ hot, expectObservable }) => {
      const source = hot('--a---b---', { a: line('1\n'), b: line('2\n') });
      expectObservable(source.pipe(sequenced())).toBe('--a---b---', {
        a: event(0, '1\n'),
        b: event(1, '2\n'),
      });
    });
  });

  it('restarts numbering for each subscription (each subscription is its own stream)', () => {
    newTestScheduler().run(({ cold, expectChunks }) => {
      const stream = cold('-a|', { a: line('x') }).pipe(sequenced());
      expectChunks(stream).toBe('-a|', { a: 'x' }, { kind: 'stdout' });
      expectChunks(stream).toBe('-a|', { a: 'x' }, { kind: 'stdout' });
    });
  });

  it('stops listening to a synchronous source when unsubscribed', () => {
    let emitted = 0;
    const source = of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10).pipe(
      map((n) => {
        emitted += 1;
        return line(String(n));
      }),
    );
    const seen: number[] = [];
    source.pipe(sequenced(), take(3)).subscribe((e) => seen.push(e.sequence));
    expect(seen).toEqual([0, 1, 2]);
    expect(emitted).toBe(3);
  });

  it('rejects a non-string finalKind before subscribe, naming the option', () => {
    expect(() => sequenced({ finalKind: 42 as unknown as string })).toThrow(
      'Expected the `finalKind` option to be a string, got `42` (number)',
    );
  });

  it('rejects null options, a bad finalMetadata and unknown options before subscribe', () => {
    expect(() => sequenced(null as never)).toThrow(
      new TypeError('Expected the options to be an object, got `null` (null)'),
    );
    expect(() => sequenced(7 as never)).toThrow(
      new TypeError('Expected the options to be an object, got `7` (number)'),
    );
    const metadata =
      'Expected the `finalMetadata` option to be an object (`partial` a boolean, `reason` a string, `dropped` a non-negative integer)';
    expect(() => sequenced({ finalMetadata: 'done' as never })).toThrow(
      new TypeError(`${metadata}, got \`done\` (string)`),
    );
    expect(() => sequenced({ finalMetadata: null as never })).toThrow(`${metadata}, got \`null\` (null)`);
    expect(() => sequenced({ finalMetadata: { dropped: -1 } })).toThrow(
      `${metadata}, got \`{"dropped":-1}\` (object)`,
    );
    expect(() => sequenced({ finalMetadata: { reason: 5 } as never })).toThrow(
      `${metadata}, got \`{"reason":5}\``,
    );
    expect(() => sequenced({ finalKnd: 'exit' } as never)).toThrow(
      new TypeError('Unknown `finalKnd` option (known options: finalKind, finalMetadata)'),
    );
  });

  it('puts a valid finalMetadata, extra keys included, on the sentinel', () => {
    const seen: unknown[] = [];
    of(line('a'))
      .pipe(sequenced({ finalKind: 'exit', finalMetadata: { reason: 'completed', tool: 'ls' } }))
      .subscribe((event) => seen.push(event));
    expect(seen.at(-1)).toEqual({
      sequence: 1,
      kind: 'exit',
      content: null,
      metadata: { reason: 'completed', tool: 'ls' },
      isFinal: true,
    });
  });

  it('never emits a final event that is not the last: a Subject that goes on after it gets the error', () => {
    const subject = new Subject<ChunkInput<string>>();
    const seen: unknown[] = [];
    subject.pipe(sequenced()).subscribe({
      next: (e) => seen.push(e),
      error: (e: SequenceError) => seen.push(e.info?.rule),
      complete: () => seen.push('complete'),
    });
    subject.next(line('a', { isFinal: true }));
    subject.next(line('b'));
    subject.next(line('c'));
    expect(seen).toEqual(['final-before-complete']);
    expect(subject.observed).toBe(false);
  });
});
