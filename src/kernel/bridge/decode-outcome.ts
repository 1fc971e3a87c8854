import { bridgeCodec } from '../protocol/bridge-codec.js';
import {
  type HostcallOutcome,
  type HostcallStreamChunk,
  hostcallOutcomeSchema,
} from '../protocol/hostcall-outcome.js';

/**
 * Reads an outcome handed to `completeHostcall`: a `HostcallOutcome` (it has a `type`) is
 * checked with its schema; anything else is decoded from the bridge shape
 * (`{ ok, value }`, `{ ok: false, code, message }`, `{ stream: true, sequence, chunk, isFinal }`).
 * Throws when it is neither. (Internal to the bridge.)
 *
 * @example
 * ```ts
 * decodeOutcome({ stream: true, sequence: 0, chunk: 'a', isFinal: false });
 * // { type: 'streamChunk', sequence: 0, chunk: 'a', isFinal: false }
 * ```
 */
export function decodeOutcome(outcome: unknown): HostcallOutcome {
  if (typeof outcome === 'object' && outcome !== null && 'type' in outcome) {
    return hostcallOutcomeSchema.parse(outcome);
  }
  return bridgeCodec.decode(outcome, 'outcome');
}

/**
 * Checks an outcome that an in-process host built itself (delivered through
 * {@link inProcessDelivery}). The host makes the envelope (`type`, `sequence`, `isFinal`, `code`,
 * `message`) from its own counters, so a stream chunk whose payload is a JSON scalar (a line of
 * output: a string) is taken as it is ({@link isScalarChunk}; for a streaming call the bridge's
 * in-process entry takes such a chunk straight to its stream, without this). Everything else —
 * a chunk that is an object or an array (it came from a producer and may not be JSON), a
 * `Success` value from a handler, an `Error` — gets the full {@link decodeOutcome}, with its
 * field-naming errors. (Internal to the bridge.)
 *
 * @example
 * ```ts
 * checkHostOutcome(streamChunk(3, 'line 4\n', false)); // the same object, unchecked by zod
 * checkHostOutcome(success({ exit_code: 0 })); // decoded with the outcome schema
 * ```
 */
export function checkHostOutcome(outcome: HostcallOutcome): HostcallOutcome {
  return isScalarChunk(outcome) ? outcome : decodeOutcome(outcome);
}

/**
 * Whether `outcome` is a stream chunk that an in-process host built around a JSON scalar (a line
 * of output: a string; or a number, a boolean, `null`), with a whole `sequence` ≥ 0 and a boolean
 * `isFinal`. Such a chunk needs neither a decode nor the renaming of "Names on the wire"
 * (docs/protocol.md): the bridge takes it as it is, with a few comparisons and no allocation.
 * (Internal to the bridge.)
 *
 * @example
 * ```ts
 * isScalarChunk(streamChunk(3, 'line 4\n', false)); // true
 * isScalarChunk(streamChunk(4, { exit_code: 0 }, true)); // false: an object is decoded
 * ```
 */
export function isScalarChunk(outcome: HostcallOutcome): outcome is HostcallStreamChunk {
  if (outcome.type !== 'streamChunk') return false;
  const { chunk, sequence } = outcome;
  // A line first, and the rest in a function of its own: this runs for every chunk of a stream,
  // inlined into the scheduler's turn, where its size counts (docs/performance.md, "Smaller hot
  // functions").
  return (
    (typeof chunk === 'string' || isOtherScalar(chunk)) &&
    Number.isSafeInteger(sequence) &&
    sequence >= 0 &&
    typeof outcome.isFinal === 'boolean'
  );
}

/** A JSON scalar that is not a string. */
function isOtherScalar(value: unknown): boolean {
  return (
    value === null || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
  );
}
