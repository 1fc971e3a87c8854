import { bridgeCodec } from '../protocol/bridge-codec.js';
import type { HostcallOutcome } from '../protocol/hostcall-outcome.js';
import { hostcallOutcomeSchema } from '../protocol/hostcall-outcome-schema.js';

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
