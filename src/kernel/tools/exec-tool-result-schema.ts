import { z } from 'zod';

/**
 * The zod schema of an {@link ExecToolResult}: the Exec tool's `outputSchema`, so a host that
 * lists tools (an MCP server, for one) can publish the result's shape as JSON Schema.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { execToolResultSchema } from 'sluice/kernel';
 * z.toJSONSchema(execToolResultSchema).required; // ['exit_code', 'signal', 'stdout', …]
 * ```
 */
export const execToolResultSchema = z.object({
  exit_code: z.number().int().nullable().describe('The exit code, or null when a signal ended the program'),
  signal: z.string().nullable().describe('The signal that ended the program (SIGTERM, SIGKILL, …), or null'),
  stdout: z.string().describe('Standard output, capped at max_output_bytes'),
  stderr: z.string().describe('Standard error, capped at max_output_bytes'),
  truncated: z.boolean().describe('Whether stdout or stderr was cut at max_output_bytes'),
  timed_out: z.boolean().describe('Whether the wall-clock limit (timeout_s) killed the program'),
  rlimit_hit: z
    .enum(['cpu', 'addressSpace', 'fileSize', 'openFiles'])
    .optional()
    .describe('The resource limit that killed the program, when one did'),
  duration_ms: z.number().describe('Wall-clock run time in milliseconds'),
});
