import { z } from 'zod';
import { streamFieldsSchema } from '../protocol/stream-options.js';

/**
 * The payload of an `exec` hostcall, as the extension sends it (snake_case):
 * `{ cmd, args?, cwd?, env?, timeout_ms?, rlimits?, stream?, buffer_size?, stall_timeout_ms? }`.
 * `cmd` is a file to run (no shell); unknown fields are rejected so a typo is an error.
 * `rlimits` (`cpu_s`, `as_bytes`, `fsize_bytes`, `nofile`, each a positive integer) are applied
 * to the child with `prlimit`, as the `exec` source's `cpuSeconds`, `addressSpaceBytes`,
 * `fileSizeBytes` and `openFiles`; there are no defaults (Node children cannot start under a
 * small `as_bytes`). Which one the child ran into comes back as `rlimit_hit`.
 */
export interface ExecPayload {
  readonly cmd: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeout_ms?: number;
  readonly rlimits?: ExecPayloadRlimits;
  readonly stream?: boolean;
  readonly buffer_size?: number;
  readonly stall_timeout_ms?: number;
}

/** The resource limits an `exec` hostcall may ask for (see {@link ExecPayload}). */
export interface ExecPayloadRlimits {
  readonly cpu_s?: number;
  readonly as_bytes?: number;
  readonly fsize_bytes?: number;
  readonly nofile?: number;
}

const positiveInteger = () =>
  z
    .number({ error: 'must be a positive integer' })
    .int({ error: 'must be a positive integer' })
    .positive({ error: 'must be a positive integer' })
    .max(Number.MAX_SAFE_INTEGER, { error: 'must be a positive integer' })
    .optional();

/**
 * The zod schema of an {@link ExecPayload}; its messages follow the field name
 * ("`payload.cmd` must be a non-empty string").
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
    rlimits: z
      .strictObject(
        {
          cpu_s: positiveInteger(),
          as_bytes: positiveInteger(),
          fsize_bytes: positiveInteger(),
          nofile: positiveInteger(),
        },
        { error: 'must be an object' },
      )
      .optional(),
  },
  { error: 'must be an object' },
);
