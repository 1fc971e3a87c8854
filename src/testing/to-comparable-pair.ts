import { isExitEventExpectation } from './exit-event.js';
import { toComparable } from './to-comparable.js';

/** A vitest / jest asymmetric matcher (`expect.any(Number)`, `expect.objectContaining({…})`). */
function isAsymmetricMatcher(value: unknown): boolean {
  return typeof (value as { asymmetricMatch?: unknown } | null)?.asymmetricMatch === 'function';
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !(value instanceof Error) &&
  !ArrayBuffer.isView(value) &&
  !(value instanceof Date) &&
  !(value instanceof RegExp);

/**
 * `actual` and `expected` made comparable side by side, as {@link toComparable} makes each, except
 * where `expected` holds a matcher: an asymmetric matcher of the test runner
 * (`expect.objectContaining`, `expect.any`) keeps the actual value found at its place as it is,
 * for the runner's assertion to match; an {@link exitEvent} expectation is decided here, so that
 * it works under any assertion (a match compares equal, a mismatch shows the fields it expected
 * beside the actual event).
 */
export function toComparablePair(actual: unknown, expected: unknown): [unknown, unknown] {
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
  if (isRecord(actual) && isRecord(expected) && !Array.isArray(actual) && !Array.isArray(expected)) {
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
