import type { z } from 'zod';
import { describeValue } from '../../core/describe-value.js';

/**
 * Validates an options object with `schema` (whose messages read as the end of "Expected the
 * `x` option to …", e.g. `'be a non-negative integer'`) and throws a `TypeError` in execa's
 * template: ``Expected the `timeoutMs` option to be a non-negative integer, got `-1` (number)``.
 * Internal to the supervisor.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { parseOptions } from './parse-options.js'; // internal
 * parseOptions(z.object({ timeoutMs: z.number({ error: 'be a number' }) }), { timeoutMs: 'x' });
 * // TypeError: Expected the `timeoutMs` option to be a number, got `x` (string)
 * ```
 */
export function parseOptions<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value ?? {}, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    throw new TypeError(`Unknown option ${issue.keys.map((key) => `\`${key}\``).join(', ')}`);
  }
  const field = issue?.path.map(String).join('.') ?? '';
  const input = (issue as { input?: unknown } | undefined)?.input;
  const expected = issue?.message.startsWith('be ') ? issue.message : `be valid (${issue?.message})`;
  const subject = field === '' ? 'the options' : `the \`${field}\` option`;
  throw new TypeError(`Expected ${subject} to ${expected}, got ${describeValue(input)}`);
}
