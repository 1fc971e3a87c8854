import type { z } from 'zod';
import { firstIssue } from '../../core/errors/first-issue.js';
import { InvalidFrameError } from '../../core/errors/invalid-frame-error.js';
import type { InvalidRequestError } from '../../core/errors/invalid-request-error.js';

/** The two errors a part of a hostcall is refused with: a bad frame from the wire, a bad request from an extension. */
type PartError = typeof InvalidFrameError | typeof InvalidRequestError;

/**
 * Parses `input` with `schema`, or throws `Invalid` (an `InvalidFrameError` for what came off
 * the wire, an `InvalidRequestError` for a request) naming the first bad field under `prefix`.
 * (Internal to the kernel.)
 *
 * @example
 * ```ts
 * const fields = parsePart(serdeChunkSchema, input.StreamChunk, 'outcome.StreamChunk', InvalidFrameError);
 * const options = parsePart(payloadSchema, payload, 'payload', InvalidRequestError);
 * ```
 */
export function parsePart<T>(schema: z.ZodType<T>, input: unknown, prefix: string, Invalid: PartError): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const { field, value, problem } = firstIssue(result.error, input, prefix);
  throw new Invalid({ field, value }, problem);
}

/**
 * Creates an `InvalidFrameError` for a decoded value (any value: a cyclic or hostile one is
 * described as `[a value that cannot be shown]`). (Internal to the protocol folder.)
 *
 * @example
 * ```ts
 * throw frameError('outcome.ok', input.ok, 'must be a boolean');
 * ```
 */
export function frameError(
  field: string,
  value: unknown,
  problem: string,
  cause?: unknown,
): InvalidFrameError {
  return new InvalidFrameError({ field, value }, problem, { cause });
}
