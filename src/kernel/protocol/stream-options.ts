import { z } from 'zod';
import { InvalidRequestError } from '../../core/errors/invalid-request-error.js';
import { MAX_DELAY_MS } from '../../core/max-delay-ms.js';
import { parsePart } from './parse-part.js';

/** The zod schema of the streaming fields of a payload, as on the wire, each optional. */
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

/** The `timeout_ms` field of the `exec` and `http` payloads. */
export const timeoutMsSchema = z
  .number({ error: 'must be a non-negative integer' })
  .int({ error: 'must be a non-negative integer' })
  .min(0, { error: 'must be a non-negative integer' })
  .optional();

/** The streaming options of a hostcall, defaulted (docs/protocol.md, "Opting in"). */
export interface StreamOptions {
  readonly stream: boolean;
  readonly bufferSize: number;
  readonly stallTimeoutMs: number;
}

/** The streaming fields with the protocol's defaults; other payload fields pass unchecked. */
export const streamOptionsSchema: z.ZodType<StreamOptions, unknown> = streamFieldsSchema.transform(
  (payload): StreamOptions => ({
    stream: payload.stream ?? false,
    bufferSize: payload.buffer_size ?? 16,
    stallTimeoutMs: payload.stall_timeout_ms ?? 30_000,
  }),
);

/** Reads the streaming options of a payload, or throws an `InvalidRequestError` naming the field. */
export function parseStreamOptions(payload: unknown): StreamOptions {
  return parsePart(streamOptionsSchema, payload, 'payload', InvalidRequestError);
}
