import type { AssertDeepEqual } from './chunk-matcher.js';
import { ChunkTestScheduler } from './chunk-test-scheduler.js';

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
