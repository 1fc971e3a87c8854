import { InvalidFrameError } from '../../core/errors/invalid-frame-error.js';
import type { HostcallOutcome } from './hostcall-outcome.js';
import type { OutcomeCodec } from './outcome-codec.js';

/**
 * One NDJSON line of the hostcall protocol: which call, and what happened to it
 * (docs/protocol.md, "Frames").
 */
export interface HostcallFrame {
  readonly callId: string;
  readonly outcome: HostcallOutcome;
}

/**
 * Encodes a frame as one NDJSON line, newline included, with the outcome in `codec`'s shape and
 * the call id under `codec.callIdKey`. JSON escapes every newline inside strings, so the line
 * holds exactly one `\n`, at its end. Throws an `InvalidFrameError` for an empty call id or an
 * invalid outcome (see {@link OutcomeCodec.encode}) — and nothing else, even for a frame whose
 * getters throw.
 *
 * @example
 * ```ts
 * import { encodeFrame, serdeCodec, streamChunk } from 'sluice/kernel';
 * encodeFrame({ callId: 'hc-42', outcome: streamChunk(0, 'a', true) }, serdeCodec);
 * // '{"call_id":"hc-42","outcome":{"StreamChunk":{"sequence":0,"chunk":"a","is_final":true}}}\n'
 * ```
 */
export function encodeFrame(frame: HostcallFrame, codec: OutcomeCodec): string {
  let callId: unknown;
  let given: unknown;
  try {
    ({ callId, outcome: given } = frame);
  } catch (error) {
    throw new InvalidFrameError({ field: '', value: undefined }, 'could not be read', { cause: error });
  }
  if (typeof callId !== 'string' || callId === '') {
    throw new InvalidFrameError({ field: codec.callIdKey, value: callId }, 'must be a non-empty string');
  }
  const outcome = codec.encode(given as HostcallOutcome);
  try {
    return `${JSON.stringify({ [codec.callIdKey]: callId, outcome })}\n`;
  } catch (error) {
    throw new InvalidFrameError({ field: 'outcome', value: undefined }, 'could not be serialised', {
      cause: error,
    });
  }
}
