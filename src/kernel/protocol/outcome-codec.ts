import type { InvalidFrameError } from '../../core/errors/invalid-frame-error.js';
import type { HostcallOutcome } from './hostcall-outcome.js';
import type { JsonValue } from './json-value.js';

/** The result of a non-throwing decode, shaped like zod's `safeParse`. */
export type DecodeResult<T> =
  | { readonly success: true; readonly data: T }
  | { readonly success: false; readonly error: InvalidFrameError };

/**
 * Translates {@link HostcallOutcome}s to and from one wire shape. Two exist:
 * {@link bridgeCodec} (what a JS bridge reads) and {@link serdeCodec} (a Rust host's serde output).
 *
 * - `encode` checks the outcome first and throws an `InvalidFrameError` rather than put an
 *   invalid outcome (negative sequence, `NaN` chunk…) on the wire; it returns a plain JSON value.
 * - `decode` accepts anything and throws only `InvalidFrameError` (code `INVALID_FRAME`), whose
 *   message names the field under `field` (default `'outcome'`) and the value found there.
 *   Unknown keys are rejected, so a misspelt `is_Final` is reported rather than defaulted.
 * - `safeDecode` never throws.
 */
export interface OutcomeCodec {
  /** `'bridge'` or `'serde'`. */
  readonly name: string;
  /** The key that carries the call id in an NDJSON frame of this codec: `callId` (bridge) or `call_id` (serde). */
  readonly callIdKey: string;
  /** Where a stream chunk's sequence sits in this wire shape (`['sequence']`, `['StreamChunk', 'sequence']`). */
  readonly sequencePath: readonly string[];
  encode(outcome: HostcallOutcome): JsonValue;
  decode(input: unknown, field?: string): HostcallOutcome;
  safeDecode(input: unknown, field?: string): DecodeResult<HostcallOutcome>;
}
