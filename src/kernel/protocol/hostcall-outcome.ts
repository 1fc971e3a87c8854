import { z } from 'zod';
import { type JsonValue, jsonValueSchema } from './json-value.js';

/** A hostcall finished with a value (`Success(value)` in docs/protocol.md). */
export interface HostcallSuccess {
  readonly type: 'success';
  readonly value: JsonValue;
}

/** A hostcall failed, or a stream failed mid-way (`Error { code, message }` in docs/protocol.md). */
export interface HostcallFailure {
  readonly type: 'error';
  /** A stable, machine-readable code such as `EXEC_FAILED`. */
  readonly code: string;
  readonly message: string;
}

/** One chunk of a streaming hostcall (`StreamChunk { sequence, chunk, is_final }` in docs/protocol.md). */
export interface HostcallStreamChunk {
  readonly type: 'streamChunk';
  /** 0-based, contiguous per call; at most `Number.MAX_SAFE_INTEGER`. */
  readonly sequence: number;
  /** The payload; `null` on a sentinel final chunk (zero-chunk stream, cancel, stall). */
  readonly chunk: JsonValue;
  /** `true` on the last chunk of the stream, and only there. */
  readonly isFinal: boolean;
}

/** What a hostcall delivers, independent of the wire ({@link bridgeCodec}, {@link serdeCodec}). */
export type HostcallOutcome = HostcallSuccess | HostcallFailure | HostcallStreamChunk;

/** Builds a {@link HostcallSuccess}. */
export function success(value: JsonValue): HostcallSuccess {
  return { type: 'success', value };
}

/** Builds a {@link HostcallFailure}. */
export function failure(code: string, message: string): HostcallFailure {
  return { type: 'error', code, message };
}

/** Builds a {@link HostcallStreamChunk}; `streamChunk(n, null, true)` is the null sentinel. */
export function streamChunk(sequence: number, chunk: JsonValue, isFinal: boolean): HostcallStreamChunk {
  return { type: 'streamChunk', sequence, chunk, isFinal };
}

/**
 * What a producer or a handler threw, as an `Error` outcome: the error's non-empty string `code`,
 * else `HOSTCALL_FAILED`; its `message`, else the value as a string.
 */
export function toFailure(error: unknown): HostcallOutcome {
  const record = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const code = typeof record.code === 'string' && record.code !== '' ? record.code : 'HOSTCALL_FAILED';
  return failure(code, typeof record.message === 'string' ? record.message : String(error));
}

/**
 * The zod schemas of the fields every outcome shape shares. A sequence above
 * `Number.MAX_SAFE_INTEGER` is rejected, never rounded.
 */
export const outcomeFields = {
  sequence: z.custom<number>(
    (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0,
    { error: 'must be a non-negative safe integer' },
  ),
  isFinal: z.boolean({ error: 'must be a boolean' }),
  code: z.string({ error: 'must be a non-empty string' }).min(1, { error: 'must be a non-empty string' }),
  message: z.string({ error: 'must be a string' }),
};

/** The zod schema of a {@link HostcallOutcome}, checked before encoding. */
export const hostcallOutcomeSchema: z.ZodType<HostcallOutcome> = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('success'), value: jsonValueSchema }),
    z.strictObject({ type: z.literal('error'), code: outcomeFields.code, message: outcomeFields.message }),
    z.strictObject({
      type: z.literal('streamChunk'),
      sequence: outcomeFields.sequence,
      chunk: jsonValueSchema,
      isFinal: outcomeFields.isFinal,
    }),
  ],
  { error: "must be an outcome whose `type` is 'success', 'error' or 'streamChunk'" },
);
