import { encodeFrame } from '../kernel/protocol/hostcall-frame.js';
import { streamChunk } from '../kernel/protocol/hostcall-outcome.js';
import type { OutcomeCodec } from '../kernel/protocol/outcome-codec.js';

/** Stand-ins that cannot occur in a real frame's text: found once in the encoded sample frame. */
const SEQUENCE = 987_654_321_012_345;
const TEXT = '\u0000sluice-text-frame\u0000';

/**
 * Encodes the non-final text stream chunks of one call — every stdout line of `sluice exec
 * --json` — byte for byte as {@link encodeFrame} does, without building and serialising a frame
 * object per line: the codec encodes one sample frame, and each frame is that sample with its
 * sequence number and its JSON-escaped text put in. Any other outcome goes through `encodeFrame`.
 *
 * @example
 * ```ts
 * const encode = textFrameEncoder('call-1', bridgeCodec);
 * encode(0, 'hello\n'); // '{"call_id":"call-1","outcome":{"ok":true,"stream":true,"sequence":0,…}}\n'
 * ```
 */
export function textFrameEncoder(
  callId: string,
  codec: OutcomeCodec,
): (sequence: number, text: string) => string {
  const sample = encodeFrame({ callId, outcome: streamChunk(SEQUENCE, TEXT, false) }, codec);
  const sequenceAt = sample.indexOf(String(SEQUENCE));
  const text = JSON.stringify(TEXT);
  const textAt = sample.indexOf(text);
  const once = sample.lastIndexOf(String(SEQUENCE)) === sequenceAt && sample.lastIndexOf(text) === textAt;
  if (sequenceAt === -1 || textAt === -1 || !once) {
    return (sequence, chunk) => encodeFrame({ callId, outcome: streamChunk(sequence, chunk, false) }, codec);
  }
  const sequenceEnd = sequenceAt + String(SEQUENCE).length;
  const textEnd = textAt + text.length;
  if (sequenceAt < textAt) {
    const [a, b, c] = [sample.slice(0, sequenceAt), sample.slice(sequenceEnd, textAt), sample.slice(textEnd)];
    return (sequence, chunk) => `${a}${sequence}${b}${JSON.stringify(chunk)}${c}`;
  }
  const [a, b, c] = [sample.slice(0, textAt), sample.slice(textEnd, sequenceAt), sample.slice(sequenceEnd)];
  return (sequence, chunk) => `${a}${JSON.stringify(chunk)}${b}${sequence}${c}`;
}
