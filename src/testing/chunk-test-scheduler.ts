import type { Observable } from 'rxjs';
import { type RunHelpers, TestScheduler } from 'rxjs/testing';
import type { ChunkEvent } from '../core/chunk.js';
import type { Valve } from '../core/demand.js';
import { type ChunkMarbleOptions, type ChunkMarbles, chunkMarbles } from './chunk-marbles.js';
import { type AssertDeepEqual, chunkMatcher } from './chunk-matcher.js';
import type { FakeProcessScript } from './compile-script.js';
import { demandMarbles } from './demand-marbles.js';
import { type FakeExec, type FakeExecOptions, fakeExec } from './fake-exec.js';

/** A cold chunk stream built by `chunks()`: a `ColdObservable`, with the events it emits. */
export type ChunkColdObservable<T> = ReturnType<TestScheduler['createColdObservable']> &
  Observable<ChunkEvent<T>> &
  Pick<ChunkMarbles<T>, 'events' | 'end'>;

/** The helpers of {@link ChunkTestScheduler.run}: RxJS's, plus chunk-aware ones on its time. */
export interface ChunkRunHelpers extends RunHelpers {
  /** A cold stream of sequenced chunk events from a diagram of contents (see {@link chunkMarbles}). */
  chunks<T = string>(
    marbles: string,
    values?: Readonly<Record<string, T>>,
    options?: ChunkMarbleOptions,
  ): ChunkColdObservable<T>;
  /** `expectObservable` with the expectation written as a diagram of contents (see {@link chunkMarbles}). */
  expectChunks(
    source: Observable<unknown>,
    subscriptionMarbles?: string | null,
  ): {
    toBe<T = string>(
      marbles: string,
      values?: Readonly<Record<string, T>>,
      options?: ChunkMarbleOptions & { readonly error?: unknown },
    ): void;
  };
  /** A consumer demand from a diagram of `p` (pause) and `r` (resume) (see {@link demandMarbles}). */
  demand(marbles: string): Valve;
  /** A fake process port on this scheduler (see {@link fakeExec}). */
  fakeExec(script?: FakeProcessScript, options?: Omit<FakeExecOptions, 'scheduler'>): FakeExec;
}

/**
 * A `TestScheduler` for chunk streams: it compares with {@link chunkMatcher}, and its `run`
 * callback gets, besides RxJS's helpers, `chunks`, `expectChunks`, `demand` and `fakeExec`, all on
 * this scheduler's virtual time. `assert` is your runner's (default `node:assert`'s).
 *
 * @example
 * ```ts
 * import { ChunkTestScheduler } from 'sluice/testing';
 * new ChunkTestScheduler((a, e) => expect(a).toEqual(e)).run(({ chunks, expectChunks }) => {
 *   const source = chunks('-a-b-|', { a: 'line 1\n', b: 'line 2\n' }, { kind: 'stdout' });
 *   expectChunks(source).toBe('-a-b-|', { a: 'line 1\n', b: 'line 2\n' }, { kind: 'stdout' });
 * });
 * ```
 */
export class ChunkTestScheduler extends TestScheduler {
  constructor(assert?: AssertDeepEqual) {
    super(chunkMatcher(assert));
  }

  override run<T>(callback: (helpers: ChunkRunHelpers) => T): T {
    return super.run((helpers) =>
      callback({
        ...helpers,
        chunks: (marbles, values, options) => {
          const built = chunkMarbles(marbles, values, options);
          const cold = helpers.cold(built.marbles, built.values);
          return Object.assign(cold, { events: built.events, end: built.end }) as never;
        },
        expectChunks: (source, subscriptionMarbles) => ({
          toBe: (marbles, values, options = {}) => {
            const built = chunkMarbles(marbles, values, options);
            helpers
              .expectObservable(source, subscriptionMarbles)
              .toBe(built.marbles, built.values, options.error);
          },
        }),
        demand: (marbles) => demandMarbles(marbles, this),
        fakeExec: (script, options) => fakeExec(script, { ...options, scheduler: this }),
      }),
    );
  }
}

/**
 * Shorthand for `new ChunkTestScheduler(assert)`.
 *
 * @example
 * ```ts
 * const testScheduler = createChunkTestScheduler((actual, expected) => expect(actual).toEqual(expected));
 * ```
 */
export function createChunkTestScheduler(assert?: AssertDeepEqual): ChunkTestScheduler {
  return new ChunkTestScheduler(assert);
}
