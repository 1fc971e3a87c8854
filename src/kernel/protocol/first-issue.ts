import type { z } from 'zod';

/** The first problem zod found, as the protocol reports it: a dotted field path, the value there, and what is wrong. */
export interface FieldProblem {
  /** `prefix.key[index].key`, or `prefix` itself (possibly `''`) for the value as a whole. */
  readonly field: string;
  /** The offending value (`undefined` when the field is missing). */
  readonly value: unknown;
  /** What is wrong, phrased to follow the field name: `must be a boolean`. */
  readonly problem: string;
}

/**
 * Turns the first issue of a failed zod parse of `input` into a {@link FieldProblem}, naming the
 * field under `prefix`. An unknown key is reported at its own path with its own value.
 * (Internal to the protocol folder: the codecs and the request parser share it.)
 *
 * @example
 * ```ts
 * const result = schema.safeParse(input);
 * if (!result.success) {
 *   const { field, value, problem } = firstIssue(result.error, input, 'outcome');
 * }
 * ```
 */
export function firstIssue(error: z.ZodError, input: unknown, prefix: string): FieldProblem {
  const issue = error.issues[0];
  if (issue === undefined) return { field: prefix, value: input, problem: 'is invalid' };
  const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const at = [...path, key];
    return { field: fieldPath(prefix, at), value: valueAt(input, at), problem: 'is not a known field' };
  }
  return { field: fieldPath(prefix, path), value: valueAt(input, path), problem: issue.message };
}

/**
 * Appends `path` to `prefix`: keys with dots, indexes in brackets (`outcome.value.items[2]`).
 *
 * @example
 * ```ts
 * fieldPath('outcome', ['value', 'items', 2]); // 'outcome.value.items[2]'
 * ```
 */
export function fieldPath(prefix: string, path: readonly (string | number)[]): string {
  let field = prefix;
  for (const key of path) {
    if (typeof key === 'number') field += `[${key}]`;
    else field += field === '' ? key : `.${key}`;
  }
  return field;
}

function valueAt(input: unknown, path: readonly (string | number)[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}
