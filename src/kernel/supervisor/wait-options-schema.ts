import { z } from 'zod';
import type { ToolChunk } from '../tools/tool-chunk.js';

/**
 * The zod schema of `RunnerHandle.wait()` options: `onChunk` a function, `timeoutMs` a
 * non-negative integer, nothing else. (Internal to the supervisor.)
 *
 * @example
 * ```ts
 * const { onChunk, timeoutMs } = parseOptions(waitOptionsSchema, options);
 * ```
 */
export const waitOptionsSchema = z.strictObject({
  onChunk: z
    .custom<(chunk: ToolChunk) => void>((value) => typeof value === 'function', 'be a function')
    .optional(),
  timeoutMs: z
    .number({ error: 'be a non-negative integer' })
    .int({ error: 'be a non-negative integer' })
    .nonnegative({ error: 'be a non-negative integer' })
    .optional(),
});
