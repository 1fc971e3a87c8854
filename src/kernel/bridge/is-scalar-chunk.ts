import type { HostcallOutcome, HostcallStreamChunk } from '../protocol/hostcall-outcome.js';

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
