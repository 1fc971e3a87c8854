import { deepStrictEqual } from 'node:assert/strict';
import { optionError } from '../core/option-error.js';
import { toComparablePair } from './to-comparable-pair.js';

/**
 * An assertion: throws when `actual` and `expected` differ (`expect(a).toEqual(e)`,
 * `assert.deepStrictEqual`, …).
 */
export type AssertDeepEqual = (actual: unknown, expected: unknown) => void;

/**
 * The comparator to give a `TestScheduler`: it compares what the scheduler recorded (frames,
 * notifications, subscription logs) through {@link toComparable}, so chunk events are compared by
 * `sequence`, `kind`, `content`, `isFinal` and `metadata` (an absent and an `undefined` metadata are
 * the same), and errors by name, code, message and info, never by stack. `assert` does the
 * comparing: pass your runner's (`(a, e) => expect(a).toEqual(e)` in vitest/jest); the default is
 * `node:assert`'s `deepStrictEqual`, which works under any runner.
 *
 * Expected values may hold your runner's asymmetric matchers (`expect.objectContaining({…})`,
 * `expect.any(Number)`): the actual value at their place is handed to `assert` as it is, for them
 * to match (with an `assert` that knows them: vitest's or jest's `toEqual`). {@link exitEvent}
 * matches an exec's final `exit` event by its exit code and signal, under any `assert`.
 *
 * @example
 * ```ts
 * import { TestScheduler } from 'rxjs/testing';
 * import { chunkMatcher } from 'sluice/testing';
 * const testScheduler = new TestScheduler(chunkMatcher((actual, expected) => expect(actual).toEqual(expected)));
 * ```
 */
export function chunkMatcher(
  assert: AssertDeepEqual = deepStrictEqual,
): (actual: unknown, expected: unknown) => void {
  if (typeof assert !== 'function') throw optionError('assert', 'a function', assert, 'argument');
  return (actual, expected) => assert(...toComparablePair(actual, expected));
}
