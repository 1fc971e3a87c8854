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

/**
 * One chunk of a streaming hostcall (`StreamChunk { sequence, chunk, is_final }` in
 * docs/protocol.md).
 */
export interface HostcallStreamChunk {
  readonly type: 'streamChunk';
  /** 0-based, contiguous per call; at most `Number.MAX_SAFE_INTEGER`. */
  readonly sequence: number;
  /** The payload; `null` on a sentinel final chunk (zero-chunk stream, cancel, stall). */
  readonly chunk: JsonValue;
  /** `true` on the last chunk of the stream, and only there. */
  readonly isFinal: boolean;
}

/**
 * What a hostcall delivers, independent of the wire: a discriminated union on `type`. The
 * {@link bridgeCodec} and {@link serdeCodec} translate it to and from the two wire shapes.
 */
export type HostcallOutcome = HostcallSuccess | HostcallFailure | HostcallStreamChunk;

/**
 * Builds a {@link HostcallSuccess}.
 *
 * @example
 * ```ts
 * import { success } from 'sluice/kernel';
 * success({ exitCode: 0 }); // { type: 'success', value: { exitCode: 0 } }
 * ```
 */
export function success(value: JsonValue): HostcallSuccess {
  return { type: 'success', value };
}

/**
 * Builds a {@link HostcallFailure}.
 *
 * @example
 * ```ts
 * import { failure } from 'sluice/kernel';
 * failure('EXEC_FAILED', 'exit code 1'); // { type: 'error', code: 'EXEC_FAILED', message: 'exit code 1' }
 * ```
 */
export function failure(code: string, message: string): HostcallFailure {
  return { type: 'error', code, message };
}

/**
 * Builds a {@link HostcallStreamChunk}.
 *
 * @example
 * ```ts
 * import { streamChunk } from 'sluice/kernel';
 * streamChunk(0, 'line 1\n', false); // { type: 'streamChunk', sequence: 0, chunk: 'line 1\n', isFinal: false }
 * streamChunk(3, null, true); // the sentinel that ends a cancelled stream
 * ```
 */
export function streamChunk(sequence: number, chunk: JsonValue, isFinal: boolean): HostcallStreamChunk {
  return { type: 'streamChunk', sequence, chunk, isFinal };
}

/**
 * Turns what a producer or a handler threw (or rejected with) into an `Error` outcome: the
 * error's `code` when it is a non-empty string (every `SluiceError` has one), else
 * `HOSTCALL_FAILED`; its `message`, else the value as a string. (Internal to the host: producers'
 * errors in `openHostStream`, handlers' in `runHandler`, bad requests in `createHost`.)
 *
 * @example
 * ```ts
 * toFailure(Object.assign(new Error('exit code 1'), { code: 'EXEC_FAILED' }));
 * // { type: 'error', code: 'EXEC_FAILED', message: 'exit code 1' }
 * toFailure('boom'); // { type: 'error', code: 'HOSTCALL_FAILED', message: 'boom' }
 * ```
 */
export function toFailure(error: unknown): HostcallOutcome {
  const record = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const code = typeof record.code === 'string' && record.code !== '' ? record.code : 'HOSTCALL_FAILED';
  return failure(code, typeof record.message === 'string' ? record.message : String(error));
}

/**
 * The zod schemas of the fields every outcome shape shares, with the messages the protocol
 * reports (they follow the field name: "`outcome.sequence` must be a non-negative safe integer").
 * A sequence above `Number.MAX_SAFE_INTEGER` is rejected, never rounded: `JSON.parse` turns the
 * text `9007199254740993` into `2 ** 53`, which is not a safe integer either.
 *
 * (Internal to the protocol folder: the codecs and the outcome schema share it.)
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

/**
 * The zod schema of a {@link HostcallOutcome} in its in-memory form (discriminated on `type`).
 * The codecs check an outcome with it before encoding, so nothing invalid reaches the wire.
 */
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
