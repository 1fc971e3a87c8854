import type { z } from 'zod';
import type { FieldIssue } from './describe-issue.js';

/**
 * The first problem zod found in JSON from outside, as a {@link FieldIssue} for `describeIssue`:
 * the path under `prefix` (`outcome.value.items[2]`), the value there, and the schema's message
 * (ours follow the field: `must be a boolean`; others read `is invalid (…)`); an unknown key is
 * reported at its own path as `is not a known field`.
 */
export function firstIssue(error: z.ZodError, input: unknown, prefix = ''): FieldIssue {
  const issue = error.issues[0];
  if (issue === undefined) return { field: prefix, value: input, problem: 'is invalid' };
  const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    const at = [...path, issue.keys[0] ?? ''];
    return { field: fieldPath(prefix, at), value: valueAt(input, at), problem: 'is not a known field' };
  }
  const problem =
    issue.code === 'invalid_type' && issue.message.startsWith('Invalid input')
      ? `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`
      : /^(must|is|has|cannot) /.test(issue.message)
        ? issue.message
        : `is invalid (${issue.message})`;
  return { field: fieldPath(prefix, path), value: valueAt(input, path), problem };
}

function fieldPath(prefix: string, path: readonly (string | number)[]): string {
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
