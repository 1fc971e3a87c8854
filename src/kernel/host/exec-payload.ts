import { z } from 'zod';
import { streamFieldsSchema } from '../protocol/stream-options.js';

/**
 * The payload of an `exec` hostcall, as the extension sends it (snake_case):
 * `{ cmd, args?, cwd?, env?, timeout_ms?, stream?, buffer_size?, stall_timeout_ms? }`.
 * `cmd` is a file to run (no shell); unknown fields are rejected so a typo is an error.
 *
 * @example
 * ```ts
 * import type { ExecPayload } from 'sluice/kernel';
 * const payload: ExecPayload = { cmd: 'make', args: ['build'], stream: true, buffer_size: 32 };
 * ```
 */
export interface ExecPayload {
  readonly cmd: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeout_ms?: number;
  readonly stream?: boolean;
  readonly buffer_size?: number;
  readonly stall_timeout_ms?: number;
}

/**
 * The zod schema of an {@link ExecPayload}; its messages follow the field name
 * ("`payload.cmd` must be a non-empty string").
 *
 * @example
 * ```ts
 * import { execPayloadSchema } from 'sluice/kernel';
 * execPayloadSchema.safeParse({ cmd: '' }).success; // false
 * ```
 */
export const execPayloadSchema: z.ZodType<ExecPayload, unknown> = z.strictObject(
  {
    ...streamFieldsSchema.shape,
    cmd: z.string({ error: 'must be a non-empty string' }).min(1, { error: 'must be a non-empty string' }),
    args: z
      .array(z.string({ error: 'must be a string' }), { error: 'must be an array of strings' })
      .optional(),
    cwd: z.string({ error: 'must be a string' }).optional(),
    env: z
      .record(z.string(), z.string({ error: 'must be a string' }), { error: 'must be an object' })
      .optional(),
    timeout_ms: z
      .number({ error: 'must be a non-negative integer' })
      .int({ error: 'must be a non-negative integer' })
      .min(0, { error: 'must be a non-negative integer' })
      .optional(),
  },
  { error: 'must be an object' },
);
