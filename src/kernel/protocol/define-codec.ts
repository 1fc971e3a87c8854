import { InvalidFrameError, isInvalidFrameError } from '../../core/errors/invalid-frame-error.js';
import { type HostcallOutcome, hostcallOutcomeSchema } from './hostcall-outcome.js';
import type { JsonValue } from './json-value.js';
import { parsePart } from './parse-part.js';

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

interface CodecParts {
  readonly name: string;
  readonly callIdKey: string;
  readonly sequencePath: readonly string[];
  /** Maps a checked outcome to the wire shape. */
  readonly write: (outcome: HostcallOutcome) => JsonValue;
  /** Reads the wire shape; throws `InvalidFrameError` naming fields under `field`. */
  readonly read: (input: unknown, field: string) => HostcallOutcome;
}

/**
 * An {@link OutcomeCodec} from its two mappings, with what every codec shares: the outcome check
 * before encoding, nothing thrown but `InvalidFrameError` (even by a hostile getter), `safeDecode`.
 */
export function defineCodec(parts: CodecParts): OutcomeCodec {
  /** Runs `read`, turning anything it throws but an `InvalidFrameError` (a hostile getter) into one. */
  const guarded = <T>(field: string, read: () => T): T => {
    try {
      return read();
    } catch (error) {
      if (isInvalidFrameError(error)) throw error;
      let reason: string;
      try {
        reason = error instanceof Error ? error.message : String(error);
      } catch {
        reason = 'a value that cannot be shown';
      }
      throw new InvalidFrameError({ field, value: undefined }, `could not be read (${reason})`, {
        cause: error,
      });
    }
  };
  const decode = (input: unknown, field = 'outcome'): HostcallOutcome =>
    guarded(field, () => parts.read(input, field));
  return {
    name: parts.name,
    callIdKey: parts.callIdKey,
    sequencePath: parts.sequencePath,
    encode: (outcome) =>
      guarded('outcome', () =>
        parts.write(
          isTextChunk(outcome)
            ? outcome
            : parsePart(hostcallOutcomeSchema, outcome, 'outcome', InvalidFrameError),
        ),
      ),
    decode,
    safeDecode: (input, field) => {
      try {
        return { success: true, data: decode(input, field) };
      } catch (error) {
        return { success: false, error: error as InvalidFrameError };
      }
    },
  };
}

/**
 * A text chunk exactly as `streamChunk()` makes it, checked by hand rather than by the schema
 * (docs/performance.md, "Decoding frames").
 */
function isTextChunk(outcome: unknown): outcome is HostcallOutcome {
  const candidate = outcome as { type?: unknown; sequence?: unknown; chunk?: unknown; isFinal?: unknown };
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.type === 'streamChunk' &&
    typeof candidate.chunk === 'string' &&
    typeof candidate.isFinal === 'boolean' &&
    Number.isSafeInteger(candidate.sequence) &&
    (candidate.sequence as number) >= 0 &&
    Object.keys(candidate).length === 4
  );
}
