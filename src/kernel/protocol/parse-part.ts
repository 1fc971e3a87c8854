import type { z } from 'zod';
import { firstIssue } from '../../core/errors/first-issue.js';
import { InvalidFrameError } from '../../core/errors/invalid-frame-error.js';
import type { InvalidRequestError } from '../../core/errors/invalid-request-error.js';

type PartError = typeof InvalidFrameError | typeof InvalidRequestError;

/**
 * Parses `input` with `schema`, or throws `Invalid` (a bad frame, a bad request) naming the first
 * bad field under `prefix`.
 */
export function parsePart<T>(schema: z.ZodType<T>, input: unknown, prefix: string, Invalid: PartError): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const { field, value, problem } = firstIssue(result.error, input, prefix);
  throw new Invalid({ field, value }, problem);
}

/** An `InvalidFrameError` for a decoded value. */
export function frameError(
  field: string,
  value: unknown,
  problem: string,
  cause?: unknown,
): InvalidFrameError {
  return new InvalidFrameError({ field, value }, problem, { cause });
}
