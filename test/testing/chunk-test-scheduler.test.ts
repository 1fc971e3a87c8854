import { deepStrictEqual } from 'node:assert/strict';
import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SluiceError } from '../../src/index.js';
import { sequenced } from '../../src/operators/sequenced.js';
import { createChunkTestScheduler } from '../../src/testing/index.js';
import { newTestScheduler } from '../support/test-scheduler.js';

describe('ChunkTestScheduler', () => {
  it('chunks() builds a cold sequenced stream whose subscriptions can be asserted', () => {
    newTestScheduler().run(({ chunks, expectObservable, expectSubscriptions }) => {
      const source = chunks('-a-b-|', { a: 'line 1\n', b: 'line 2\n' }, { kind: 'stdout' });
      expectObservable(source).toBe('-a-b-(z|)', { ...source.events, z: source.end });
      expectSubscriptions(source.subscriptions).toBe('^----!');
      expect(source.events.b).toEqual({ sequence: 1, kind: 'stdout', content: 'line 2\n', isFinal: false });
    });
  });

  it('expectChunks() writes the expectation as contents, and compares errors without stacks', () => {
    newTestScheduler().run(({ cold, expectChunks }) => {
      const lines = cold('-a-b-|', {
        a: { kind: 'stdout', content: 'x' },
        b: { kind: 'stdout', content: 'y' },
      });
      expectChunks(lines.pipe(sequenced())).toBe('-a-b-|', { a: 'x', b: 'y' }, { kind: 'stdout' });
      const failing = cold(
        '-a-#',
        { a: { kind: 'stdout', content: 'x' } },
        new SluiceError('EXEC_FAILED', 'exit 1'),
      );
      expectChunks(failing.pipe(sequenced())).toBe(
        '-a-#',
        { a: 'x' },
        {
          kind: 'stdout',
          error: new SluiceError('EXEC_FAILED', 'exit 1'),
        },
      );
    });
  });

  it('expectChunks() takes subscription marbles, like expectObservable', () => {
    newTestScheduler().run(({ chunks, expectChunks }) => {
      const source = chunks('-a-b-c-|');
      expectChunks(source.pipe(map((event) => event)), '^--!').toBe('-a-');
    });
  });

  it('fails when a chunk differs', () => {
    expect(() =>
      createChunkTestScheduler(deepStrictEqual).run(({ chunks, expectChunks }) => {
        expectChunks(chunks('-a|', { a: 'x' })).toBe('-a|', { a: 'y' });
      }),
    ).toThrow();
    expect(() =>
      createChunkTestScheduler(deepStrictEqual).run(({ chunks, expectChunks }) => {
        expectChunks(chunks('-a|', { a: 'x' }, { kind: 'stdout' })).toBe(
          '-a|',
          { a: 'x' },
          { kind: 'stderr' },
        );
      }),
    ).toThrow();
  });

  it('demand() pauses and resumes at the diagram times', () => {
    const seen: string[] = [];
    newTestScheduler().run(({ demand, flush }) => {
      const valve = demand('--p--r-p');
      valve.onChange((paused) => seen.push(paused ? 'pause' : 'resume'));
      flush();
    });
    expect(seen).toEqual(['pause', 'resume', 'pause']);
  });
});
