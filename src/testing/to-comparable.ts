/**
 * What {@link chunkMatcher} compares instead of the value itself: the same data with
 * `undefined` properties left out (as `toEqual` does) and every `Error` reduced to
 * `{ error: name, code?, message, info? }` — its stack, its realm and its class identity do not
 * count (RxJS's own `observableMatcher` does the same for its specs). Cycles become `'[Circular]'`.
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

function convert(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (ArrayBuffer.isView(value) || value instanceof Date || value instanceof RegExp) return value;
  // A test runner's asymmetric matcher (`expect.any(…)`) in an expected value stays one.
  if (typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function') return value;
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  try {
    if (value instanceof Error) return describeError(value, seen);
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

function describeError(error: Error, seen: WeakSet<object>): Record<string, unknown> {
  const record = error as Error & { code?: unknown; info?: unknown };
  const result: Record<string, unknown> = { error: error.name, message: error.message };
  if (record.code !== undefined) result.code = convert(record.code, seen);
  if (record.info !== undefined) result.info = convert(record.info, seen);
  return result;
}
