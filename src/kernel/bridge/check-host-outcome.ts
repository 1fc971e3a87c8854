import type { HostcallOutcome } from '../protocol/hostcall-outcome.js';
import { decodeOutcome } from './decode-outcome.js';
import { isScalarChunk } from './is-scalar-chunk.js';

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
