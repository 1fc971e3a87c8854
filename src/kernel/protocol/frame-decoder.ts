import { InvalidFrameError, isInvalidFrameError } from '../../core/errors/invalid-frame-error.js';
import { optionError } from '../../core/option-error.js';
import { readInteger } from '../../core/read-integer.js';
import { rejectUnknownOptions } from '../../core/reject-unknown-options.js';
import { decodeFrame } from './decode-frame.js';
import type { HostcallFrame } from './hostcall-frame.js';
import type { OutcomeCodec } from './outcome-codec.js';

const NEWLINE = 0x0a;
const DEFAULT_MAX_FRAME_BYTES = 8 * 1024 * 1024;

/** Options of {@link createFrameDecoder} and `decodeFrames`. */
export interface FrameDecoderConfig {
  /**
   * The longest line accepted, in UTF-8 bytes, not counting `\n`. A longer line becomes one
   * `InvalidFrameError` the moment it crosses the limit, and its remaining bytes are discarded
   * up to the next newline, so memory stays bounded. Default 8 MiB.
   */
  readonly maxFrameBytes?: number;
  /**
   * How deep a line may nest arrays and objects (the envelope counts: a chunk's own nesting gets
   * two levels fewer). A deeper line becomes one `InvalidFrameError` before it is parsed, found in
   * time linear in its length. Default 128, serde_json's own limit.
   */
  readonly maxFrameDepth?: number;
}

/**
 * A stateful NDJSON decoder: feed it pieces of a byte (or text) stream as they arrive.
 * Each call returns what those bytes completed, in order: a {@link HostcallFrame} per good line,
 * an `InvalidFrameError` *value* per bad line (bad lines never stop later ones).
 */
export interface FrameDecoder {
  /** Adds a piece, split anywhere (inside a UTF-8 character, between `\r` and `\n`…). */
  push(piece: Uint8Array | string): Array<HostcallFrame | InvalidFrameError>;
  /** Ends the stream: decodes a last line that has no newline, then resets the decoder. */
  end(): Array<HostcallFrame | InvalidFrameError>;
}

/**
 * Creates a {@link FrameDecoder} for frames in `codec`'s shape. Lines are split on the byte
 * `\n` (which never occurs inside a multi-byte UTF-8 character) and each complete line is then
 * decoded as strict UTF-8, so invalid UTF-8 is an error for that line only. A trailing `\r` is
 * dropped; blank lines are skipped. Strings are encoded to UTF-8 first (a surrogate pair split
 * between two string pieces is kept together).
 *
 * @example
 * ```ts
 * import { createFrameDecoder, serdeCodec } from 'sluice/kernel';
 * const decoder = createFrameDecoder(serdeCodec);
 * decoder.push('{"call_id":"hc-1","outcome":{"Succ'); // []
 * decoder.push('ess":42}}\nnot json\n'); // [{ callId: 'hc-1', outcome: { type: 'success', value: 42 } }, InvalidFrameError]
 * ```
 */
export function createFrameDecoder(codec: OutcomeCodec, config: FrameDecoderConfig = {}): FrameDecoder {
  rejectUnknownOptions(config, ['maxFrameBytes', 'maxFrameDepth']);
  const maxFrameBytes = readInteger(config, 'maxFrameBytes', DEFAULT_MAX_FRAME_BYTES, { min: 1 });
  const maxFrameDepth = readInteger(config, 'maxFrameDepth', 128, { min: 1 });
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const encoder = new TextEncoder();
  let parts: Uint8Array[] = [];
  let size = 0;
  let discarding = false;
  let highSurrogate = '';

  const decodeLine = (bytes: Uint8Array, out: Array<HostcallFrame | InvalidFrameError>) => {
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch (error) {
      out.push(
        new InvalidFrameError({ field: '', value: preview(bytes) }, 'is not valid UTF-8', { cause: error }),
      );
      return;
    }
    if (text.trim() === '') return;
    try {
      out.push(decodeFrame(text, codec, { maxDepth: maxFrameDepth }));
    } catch (error) {
      out.push(
        isInvalidFrameError(error)
          ? error
          : new InvalidFrameError({ field: '', value: text }, 'could not be read'),
      );
    }
  };

  const append = (bytes: Uint8Array, out: Array<HostcallFrame | InvalidFrameError>) => {
    if (discarding || bytes.length === 0) return;
    if (size + bytes.length > maxFrameBytes) {
      const head = parts.length > 0 ? concat(parts, size) : bytes;
      out.push(
        new InvalidFrameError(
          { field: '', value: preview(head) },
          `is longer than \`maxFrameBytes\` (${maxFrameBytes} bytes)`,
        ),
      );
      parts = [];
      size = 0;
      discarding = true;
      return;
    }
    parts.push(bytes.slice());
    size += bytes.length;
  };

  const finishLine = (out: Array<HostcallFrame | InvalidFrameError>) => {
    if (!discarding && size > 0) decodeLine(parts.length === 1 ? parts[0]! : concat(parts, size), out);
    parts = [];
    size = 0;
    discarding = false;
  };

  const pushBytes = (bytes: Uint8Array, out: Array<HostcallFrame | InvalidFrameError>) => {
    let start = 0;
    for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, start)) {
      if (size === 0 && !discarding) {
        if (at - start > maxFrameBytes) append(bytes.subarray(start, at), out);
        else if (at > start) decodeLine(bytes.subarray(start, at), out);
      } else {
        append(bytes.subarray(start, at), out);
      }
      finishLine(out);
      start = at + 1;
    }
    append(bytes.subarray(start), out);
  };

  return {
    push(piece) {
      const out: Array<HostcallFrame | InvalidFrameError> = [];
      if (typeof piece === 'string') {
        let text = highSurrogate + piece;
        highSurrogate = '';
        const last = text.charCodeAt(text.length - 1);
        if (last >= 0xd800 && last <= 0xdbff) {
          highSurrogate = text.slice(-1);
          text = text.slice(0, -1);
        }
        pushBytes(encoder.encode(text), out);
      } else if (ArrayBuffer.isView(piece)) {
        pushBytes(new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength), out);
      } else {
        throw optionError('piece', 'a Uint8Array or a string', piece, 'argument');
      }
      return out;
    },
    end() {
      const out: Array<HostcallFrame | InvalidFrameError> = [];
      if (highSurrogate !== '') append(encoder.encode(highSurrogate), out);
      highSurrogate = '';
      finishLine(out);
      return out;
    },
  };
}

function concat(parts: readonly Uint8Array[], size: number): Uint8Array {
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}

function preview(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes.subarray(0, 64));
}
