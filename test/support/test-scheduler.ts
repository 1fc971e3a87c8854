import { expect } from 'vitest';
import { ChunkTestScheduler } from '../../src/testing/chunk-test-scheduler.js';

/**
 * The one test scheduler of the suite: RxJS's `TestScheduler` with sluice's chunk helpers
 * (`chunks`, `expectChunks`, `demand`, `fakeExec`), comparing frames with vitest's `toEqual`
 * (errors by name, message, `code` and `info`; see `src/testing/chunk-matcher.ts`).
 */
export function newTestScheduler(): ChunkTestScheduler {
  return new ChunkTestScheduler((actual, expected) => expect(actual).toEqual(expected));
}
