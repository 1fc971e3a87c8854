import type { OutcomeCodec } from '../kernel/protocol/define-codec.js';
import { encodeFrame } from '../kernel/protocol/hostcall-frame.js';
import { streamChunk } from '../kernel/protocol/hostcall-outcome.js';

/** Stand-ins that cannot occur in a real frame's text: found once in the encoded sample frame. */
const SEQUENCE = 987_654_321_012_345;
const TEXT = '\u0000sluice-text-frame\u0000';

/**
 * Text that `JSON.stringify` writes unchanged between its quotes, but for one trailing `\n`: no
 * control character, `"`, `\\` or UTF-16 surrogate (a lone one is escaped; a pair is checked
 * by `JSON.stringify` too, not worth telling apart here). Such a line's JSON is put in with one
 * regular-expression test instead of a `JSON.stringify`, and with the quotes and the escaped
 * newline folded into the frame's constant parts: each part is one more piece to copy when a
 * batch of frames is written (docs/performance.md, "`--json` without a queue of its own").
 */
const PLAIN_LINE = /^[^\u0000-\u001f"\\\ud800-\udfff]*\n?$/;

/**
 * `parts` as flat strings: a string built by `+` or sliced from another is a tree V8 walks on
 * every copy, and each frame's constant parts are copied into every batch (docs/performance.md,
 * "`--json` without a queue of its own"). `join` builds a flat copy.
 */
function flat(...parts: string[]): string[] {
  return parts.map((part) => [part, ''].join(''));
}

/**
 * Encodes the non-final text stream chunks of one call — every stdout line of `sluice exec
 * --json` — byte for byte as {@link encodeFrame} does, without building and serialising a frame
 * object per line: the codec encodes one sample frame, and each frame is that sample with its
 * sequence number and its JSON-escaped text put in (a plain line without `JSON.stringify`: see
 * {@link PLAIN_LINE}). Any other outcome goes through `encodeFrame`.
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
    const [a, b, c] = flat(
      sample.slice(0, sequenceAt),
      sample.slice(sequenceEnd, textAt),
      sample.slice(textEnd),
    );
    const [open, close, closeLine] = flat(`${b}"`, `"${c}`, `\\n"${c}`);
    return (sequence, chunk) => {
      if (!PLAIN_LINE.test(chunk)) return `${a}${sequence}${b}${JSON.stringify(chunk)}${c}`;
      return chunk.charCodeAt(chunk.length - 1) === 10
        ? `${a}${sequence}${open}${chunk.slice(0, -1)}${closeLine}`
        : `${a}${sequence}${open}${chunk}${close}`;
    };
  }
  const [a, b, c] = flat(
    sample.slice(0, textAt),
    sample.slice(textEnd, sequenceAt),
    sample.slice(sequenceEnd),
  );
  const [open, close, closeLine] = flat(`${a}"`, `"${b}`, `\\n"${b}`);
  return (sequence, chunk) => {
    if (!PLAIN_LINE.test(chunk)) return `${a}${JSON.stringify(chunk)}${b}${sequence}${c}`;
    return chunk.charCodeAt(chunk.length - 1) === 10
      ? `${open}${chunk.slice(0, -1)}${closeLine}${sequence}${c}`
      : `${open}${chunk}${close}${sequence}${c}`;
  };
}
