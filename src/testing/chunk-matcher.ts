import { deepStrictEqual } from 'node:assert/strict';
import { optionError } from '../core/option-error.js';
import { isExitEventExpectation } from './exit-event.js';

/**
 * An assertion: throws when `actual` and `expected` differ (`expect(a).toEqual(e)`,
 * `assert.deepStrictEqual`, …).
 */
export type AssertDeepEqual = (actual: unknown, expected: unknown) => void;

/**
 * The comparator to give a `TestScheduler`: what the scheduler recorded is compared through
 * {@link toComparable} (an absent and an `undefined` metadata are the same; errors by name, code,
 * message and info, never by stack). `assert` does the comparing: your runner's (`(a, e) =>
 * expect(a).toEqual(e)`), or by default `node:assert`'s `deepStrictEqual`. The actual value at the
 * place of an asymmetric matcher (`expect.any(Number)`) is handed to `assert` as it is, for it to
 * match; an {@link exitEvent} matches under any `assert`.
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

/**
 * What {@link chunkMatcher} compares instead of the value itself: the same data without its
 * `undefined` properties (as `toEqual`), every `Error` reduced to `{ error: name, code?, message,
 * info? }` (as RxJS's `observableMatcher`), and cycles as `'[Circular]'`.
 *
 * @example
 * ```ts
 * import { toComparable } from 'sluice/testing';
 * toComparable(new SequenceError({ rule: 'gap', expected: 1, received: 3 }));
 * // { error: 'SequenceError', code: 'STREAM_SEQUENCE', message: '…', info: { rule: 'gap', … } }
 * ```
 */
export function toComparable(value: unknown): unknown {
  return convert(value, new WeakSet());
}

/** A vitest / jest asymmetric matcher (`expect.any(Number)`, `expect.objectContaining({…})`). */
function isAsymmetricMatcher(value: unknown): boolean {
  return typeof (value as { asymmetricMatch?: unknown } | null)?.asymmetricMatch === 'function';
}

/** Compared as it is, never taken apart (an asymmetric matcher in an expected value stays one). */
const isLeaf = (value: object): boolean =>
  ArrayBuffer.isView(value) || value instanceof Date || value instanceof RegExp || isAsymmetricMatcher(value);

function convert(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value !== 'object' || value === null || isLeaf(value)) return value;
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  try {
    if (value instanceof Error) {
      const { code, info } = value as Error & { code?: unknown; info?: unknown };
      const result: Record<string, unknown> = { error: value.name, message: value.message };
      if (code !== undefined) result.code = convert(code, seen);
      if (info !== undefined) result.info = convert(info, seen);
      return result;
    }
    if (Array.isArray(value)) return value.map((item) => convert(item, seen));
    const result: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) {
      if (item !== undefined) result[name] = convert(item, seen);
    }
    return result;
  } finally {
    seen.delete(value);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  !(value instanceof Error) &&
  !isLeaf(value);

/**
 * `actual` and `expected` made comparable side by side, except where `expected` holds a matcher:
 * the runner's keeps the actual value at its place as it is; an {@link exitEvent} is decided here (a
 * match compares equal, a mismatch shows the fields it expected beside the actual event).
 */
function toComparablePair(actual: unknown, expected: unknown): [unknown, unknown] {
  if (isExitEventExpectation(expected)) {
    if (expected.asymmetricMatch(actual))
      return [expected.toAsymmetricMatcher(), expected.toAsymmetricMatcher()];
    const { sequence, ...content } = expected.fields;
    return [
      toComparable(actual),
      { ...(sequence === undefined ? {} : { sequence }), kind: 'exit', content, isFinal: true },
    ];
  }
  if (isAsymmetricMatcher(expected)) return [actual, expected];
  if (Array.isArray(actual) && Array.isArray(expected)) {
    const pairs = actual.map((item, i) =>
      i < expected.length ? toComparablePair(item, expected[i]) : [toComparable(item)],
    );
    return [
      pairs.map(([a]) => a),
      [
        ...pairs.slice(0, expected.length).map(([, e]) => e),
        ...expected.slice(actual.length).map(toComparable),
      ],
    ];
  }
  if (isRecord(actual) && isRecord(expected)) {
    const a: Record<string, unknown> = {};
    const e: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(actual), ...Object.keys(expected)])) {
      const [left, right] = toComparablePair(actual[key], expected[key]);
      if (actual[key] !== undefined) a[key] = left;
      if (expected[key] !== undefined) e[key] = right;
    }
    return [a, e];
  }
  return [toComparable(actual), toComparable(expected)];
}
