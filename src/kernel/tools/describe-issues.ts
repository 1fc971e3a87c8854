import type { z } from 'zod';
import { describeWireValue as describeValue } from '../../core/errors/describe-wire-value.js';

/**
 * Turns the first zod issue into one sentence that names the field, in execa's template:
 * ``Expected `stream` to be a boolean, got "yes" (string)``. Schemas in the kernel word their
 * messages as the end of "Expected `field` to …" (`'be a boolean'`), which this completes; an
 * unknown key becomes ``Unexpected `name` in the arguments``. The issues must have been produced
 * with `reportInput: true` so the offending value can be shown.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { describeIssues } from './describe-issues.js'; // internal to the kernel
 * const result = z.object({ stream: z.boolean({ error: 'be a boolean' }) })
 *   .safeParse({ stream: 'yes' }, { reportInput: true });
 * if (!result.success) describeIssues(result.error, 'the arguments');
 * // 'Expected `stream` to be a boolean, got "yes" (string)'
 * ```
 */
export function describeIssues(error: z.ZodError, subject: string): string {
  const issue = error.issues[0];
  if (issue === undefined) return `Invalid ${subject}`;
  const input = (issue as { input?: unknown }).input;
  if (issue.code === 'unrecognized_keys') {
    const where = issue.path.length === 0 ? subject : `\`${formatPath(issue.path)}\``;
    return `Unexpected ${issue.keys.map((key) => `\`${key}\``).join(', ')} in ${where}`;
  }
  const field = issue.path.length === 0 ? subject : `\`${formatPath(issue.path)}\``;
  if (issue.message.startsWith('be ')) {
    return `Expected ${field} to ${issue.message}, got ${describeValue(input)}`;
  }
  if (issue.code === 'invalid_type') {
    return `Expected ${field} to be ${article(issue.expected)}, got ${describeValue(input)}`;
  }
  return `Invalid ${field}: ${issue.message}, got ${describeValue(input)}`;
}

function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}

function article(noun: string): string {
  return /^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`;
}
