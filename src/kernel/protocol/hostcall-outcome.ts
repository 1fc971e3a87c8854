import type { JsonValue } from './json-value.js';

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
