import type { z } from 'zod';
import { firstIssue } from '../../core/errors/first-issue.js';
import { InvalidRequestError } from '../../core/errors/invalid-request-error.js';

/**
 * Parses `input` with `schema`, or throws an {@link InvalidRequestError} naming the first bad
 * field under `prefix`. (Internal to the protocol folder.)
 *
 * @example
 * ```ts
 * const options = parseRequestPart(payloadSchema, payload, 'payload');
 * ```
 */
export function parseRequestPart<T>(schema: z.ZodType<T>, input: unknown, prefix: string): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const { field, value, problem } = firstIssue(result.error, input, prefix);
  throw new InvalidRequestError({ field, value }, problem);
}
