import { deepStrictEqual } from 'node:assert/strict';
import { optionError } from '../core/option-error.js';
import { toComparable } from './to-comparable.js';

/**
 * An assertion: throws when `actual` and `expected` differ (`expect(a).toEqual(e)`,
 * `assert.deepStrictEqual`, …).
 *
 * @example
 * ```ts
 * import { chunkMatcher, type AssertDeepEqual } from 'sluice/testing';
 * const assert: AssertDeepEqual = (actual, expected) => expect(actual).toEqual(expected);
 * const testScheduler = new TestScheduler(chunkMatcher(assert));
 * ```
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
  return (actual, expected) => assert(toComparable(actual), toComparable(expected));
}
