import type { z } from 'zod';
import { firstIssue } from '../../core/errors/first-issue.js';
import { frameError } from './frame-error.js';

/**
 * Parses `input` with `schema`, or throws an `InvalidFrameError` naming the first bad
 * field under `prefix`. (Internal to the protocol folder.)
 *
 * @example
 * ```ts
 * const fields = parseFramePart(serdeChunkSchema, input.StreamChunk, 'outcome.StreamChunk');
 * ```
 */
export function parseFramePart<T>(schema: z.ZodType<T>, input: unknown, prefix: string): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const { field, value, problem } = firstIssue(result.error, input, prefix);
  throw frameError(field, value, problem);
}
