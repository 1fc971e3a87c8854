import { bridgeCodec } from '../protocol/bridge-codec.js';
import {
  type HostcallOutcome,
  type HostcallStreamChunk,
  hostcallOutcomeSchema,
} from '../protocol/hostcall-outcome.js';

/** A `HostcallOutcome` (it has a `type`), checked, or one decoded from the bridge shape; else throws. */
export function decodeOutcome(outcome: unknown): HostcallOutcome {
  if (typeof outcome === 'object' && outcome !== null && 'type' in outcome) {
    return hostcallOutcomeSchema.parse(outcome);
  }
  return bridgeCodec.decode(outcome, 'outcome');
}

/**
 * Checks an outcome an in-process host built itself: the host made the envelope from its own
 * counters, so a chunk around a JSON scalar is taken as it is; anything else (an object may come
 * from a producer and not be JSON) gets the full {@link decodeOutcome}.
 */
export function checkHostOutcome(outcome: HostcallOutcome): HostcallOutcome {
  return isScalarChunk(outcome) ? outcome : decodeOutcome(outcome);
}

/**
 * A well-formed stream chunk around a JSON scalar: it needs neither a decode nor the renaming of
 * docs/protocol.md, "Names on the wire".
 */
export function isScalarChunk(outcome: HostcallOutcome): outcome is HostcallStreamChunk {
  if (outcome.type !== 'streamChunk') return false;
  const { chunk, sequence } = outcome;
  // A line first, the rest in a function of its own (docs/performance.md, "Smaller hot functions").
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
