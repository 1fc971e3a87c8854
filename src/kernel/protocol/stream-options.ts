import { z } from 'zod';
import { InvalidRequestError } from '../../core/errors/invalid-request-error.js';
import { MAX_DELAY_MS } from '../../core/max-delay-ms.js';
import { parsePart } from './parse-part.js';

/**
 * The zod schema of the three streaming fields a hostcall payload may carry, as they appear on
 * the wire (snake_case, each optional). {@link streamOptionsSchema} adds the defaults.
 */
export const streamFieldsSchema = z.looseObject(
  {
    stream: z.boolean({ error: 'must be a boolean' }).optional(),
    buffer_size: z
      .number({ error: 'must be an integer ≥ 1' })
      .int({ error: 'must be an integer ≥ 1' })
      .min(1, { error: 'must be an integer ≥ 1' })
      .optional(),
    stall_timeout_ms: z
      .number({ error: `must be an integer from 0 to ${MAX_DELAY_MS}` })
      .int({ error: `must be an integer from 0 to ${MAX_DELAY_MS}` })
      .min(0, { error: `must be an integer from 0 to ${MAX_DELAY_MS}` })
      .max(MAX_DELAY_MS, { error: `must be an integer from 0 to ${MAX_DELAY_MS}` })
      .optional(),
  },
  { error: 'must be an object' },
);

/**
 * The streaming options of a hostcall, defaulted: `stream` (default `false`), `bufferSize`
 * (`buffer_size`, default 16, the bounded channel's capacity) and `stallTimeoutMs`
 * (`stall_timeout_ms`, default 30000; `0` disables stall detection).
 */
export interface StreamOptions {
  readonly stream: boolean;
  readonly bufferSize: number;
  readonly stallTimeoutMs: number;
}

/**
 * Validates the streaming fields of a payload and turns them into {@link StreamOptions} with
 * the protocol's defaults (docs/protocol.md, "Opting in"). Other payload fields pass unchecked (each kind defines its own).
 */
export const streamOptionsSchema: z.ZodType<StreamOptions, unknown> = streamFieldsSchema.transform(
  (payload): StreamOptions => ({
    stream: payload.stream ?? false,
    bufferSize: payload.buffer_size ?? 16,
    stallTimeoutMs: payload.stall_timeout_ms ?? 30_000,
  }),
);

/**
 * Reads the streaming options of a hostcall payload, or throws an `InvalidRequestError`
 * (code `INVALID_REQUEST`) naming the field: "Invalid hostcall request: `payload.buffer_size`
 * must be an integer ≥ 1, got 0 (number)". A non-boolean `stream` is an error, not
 * silently `false`.
 *
 * @example
 * ```ts
 * import { parseStreamOptions } from 'sluice/kernel';
 * parseStreamOptions({ stream: true, buffer_size: 32, stall_timeout_ms: 0 });
 * // { stream: true, bufferSize: 32, stallTimeoutMs: 0 }
 * ```
 */
export function parseStreamOptions(payload: unknown): StreamOptions {
  return parsePart(streamOptionsSchema, payload, 'payload', InvalidRequestError);
}
