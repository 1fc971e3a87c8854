import type { OperatorFunction } from 'rxjs';
import { InvalidFrameError, isInvalidFrameError } from '../../core/errors/invalid-frame-error.js';
import { createOperatorSubscriber, operate } from '../../core/operate.js';
import { optionError } from '../../core/option-error.js';
import { readFunction } from '../../core/read-function.js';
import { readInteger } from '../../core/read-integer.js';
import { readOption } from '../../core/read-option.js';
import { rejectUnknownOptions } from '../../core/reject-unknown-options.js';
import type { OutcomeCodec } from './define-codec.js';
import { decodeFrame, type HostcallFrame } from './hostcall-frame.js';

const NEWLINE = 0x0a;
const DEFAULT_MAX_FRAME_BYTES = 8 * 1024 * 1024;

/** Options of {@link createFrameDecoder} and `decodeFrames`. */
export interface FrameDecoderConfig {
  /** The longest line in UTF-8 bytes; the rest of a longer one is discarded unread. Default 8 MiB. */
  readonly maxFrameBytes?: number;
  /** How deep a line may nest, the envelope's two levels included; checked before parsing. Default 128. */
  readonly maxFrameDepth?: number;
}

/** Each call returns what its bytes completed, in order: a bad line is an error value, never a stop. */
export interface FrameDecoder {
  /** Adds a piece, split anywhere (inside a UTF-8 character, between `\r` and `\n`…). */
  push(piece: Uint8Array | string): Array<HostcallFrame | InvalidFrameError>;
  /** Decodes a last line that has no newline, then resets the decoder. */
  end(): Array<HostcallFrame | InvalidFrameError>;
}

/**
 * Creates a {@link FrameDecoder} for frames in `codec`'s shape. Each line is decoded as strict
 * UTF-8, so invalid UTF-8 is an error for that line only; a trailing `\r` is dropped, blank lines
 * skipped, a surrogate pair split between two string pieces kept together.
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
  return new LineFrameDecoder(codec, maxFrameBytes, maxFrameDepth);
}

type Decoded = Array<HostcallFrame | InvalidFrameError>;

class LineFrameDecoder implements FrameDecoder {
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private readonly encoder = new TextEncoder();
  private parts: Uint8Array[] = [];
  private size = 0;
  /** The line under way is too long: its bytes are dropped up to the next newline. */
  private discarding = false;
  /** A high surrogate that ended the last string piece, waiting for its pair. */
  private highSurrogate = '';

  constructor(
    private readonly codec: OutcomeCodec,
    private readonly maxFrameBytes: number,
    private readonly maxFrameDepth: number,
  ) {}

  push(piece: Uint8Array | string): Decoded {
    const out: Decoded = [];
    if (typeof piece === 'string') this.pushBytes(this.encoder.encode(this.keepSurrogate(piece)), out);
    else if (ArrayBuffer.isView(piece)) {
      this.pushBytes(new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength), out);
    } else {
      throw optionError('piece', 'a Uint8Array or a string', piece, 'argument');
    }
    return out;
  }

  end(): Decoded {
    const out: Decoded = [];
    if (this.highSurrogate !== '') this.append(this.encoder.encode(this.highSurrogate), out);
    this.highSurrogate = '';
    this.finishLine(out);
    return out;
  }

  /** `piece` after the surrogate kept from the last one, less a high surrogate it ends with. */
  private keepSurrogate(piece: string): string {
    let text = this.highSurrogate + piece;
    this.highSurrogate = '';
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.highSurrogate = text.slice(-1);
      text = text.slice(0, -1);
    }
    return text;
  }

  /** Splits `bytes` on newlines: a whole line in one piece is decoded without a copy. */
  private pushBytes(bytes: Uint8Array, out: Decoded): void {
    let start = 0;
    for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, start)) {
      if (this.size === 0 && !this.discarding) {
        if (at - start > this.maxFrameBytes) this.append(bytes.subarray(start, at), out);
        else if (at > start) this.decodeLine(bytes.subarray(start, at), out);
      } else {
        this.append(bytes.subarray(start, at), out);
      }
      this.finishLine(out);
      start = at + 1;
    }
    this.append(bytes.subarray(start), out);
  }

  /** Keeps a piece of the line under way, or refuses the line once it is too long. */
  private append(bytes: Uint8Array, out: Decoded): void {
    if (this.discarding || bytes.length === 0) return;
    if (this.size + bytes.length > this.maxFrameBytes) {
      const head = this.parts.length > 0 ? concat(this.parts, this.size) : bytes;
      out.push(
        new InvalidFrameError(
          { field: '', value: preview(head) },
          `is longer than \`maxFrameBytes\` (${this.maxFrameBytes} bytes)`,
        ),
      );
      this.parts = [];
      this.size = 0;
      this.discarding = true;
      return;
    }
    this.parts.push(bytes.slice());
    this.size += bytes.length;
  }

  /** A newline ends the line under way: decode it unless it was refused. */
  private finishLine(out: Decoded): void {
    const { parts, size } = this;
    if (!this.discarding && size > 0)
      this.decodeLine(parts.length === 1 ? parts[0]! : concat(parts, size), out);
    this.parts = [];
    this.size = 0;
    this.discarding = false;
  }

  private decodeLine(bytes: Uint8Array, out: Decoded): void {
    let text: string;
    try {
      text = this.utf8.decode(bytes);
    } catch (error) {
      out.push(
        new InvalidFrameError({ field: '', value: preview(bytes) }, 'is not valid UTF-8', { cause: error }),
      );
      return;
    }
    if (text.trim() === '') return;
    try {
      out.push(decodeFrame(text, this.codec, { maxDepth: this.maxFrameDepth }));
    } catch (error) {
      out.push(
        isInvalidFrameError(error)
          ? error
          : new InvalidFrameError({ field: '', value: text }, 'could not be read'),
      );
    }
  }
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

/** Options of {@link decodeFrames}. */
export interface DecodeFramesConfig extends FrameDecoderConfig {
  /** A malformed line errors the output (default) or is skipped and reported to `onInvalidFrame`. */
  readonly invalidFrames?: 'error' | 'skip';
  readonly onInvalidFrame?: (error: InvalidFrameError) => void;
}

/**
 * Decodes an NDJSON stream into {@link HostcallFrame}s with {@link createFrameDecoder}. Only the
 * partial line is buffered, and the source is subscribed synchronously, so demand passes through.
 *
 * @example
 * ```ts
 * import { decodeFrames, serdeCodec } from 'sluice/kernel';
 * hostStdout$.pipe(decodeFrames(serdeCodec)).subscribe(({ callId, outcome }) => console.log(callId, outcome));
 * // keep going past bad lines:
 * hostStdout$.pipe(decodeFrames(serdeCodec, { invalidFrames: 'skip', onInvalidFrame: (e) => console.warn(e.message) }));
 * ```
 */
export function decodeFrames(
  codec: OutcomeCodec,
  config: DecodeFramesConfig = {},
): OperatorFunction<Uint8Array | string, HostcallFrame> {
  rejectUnknownOptions(config, ['invalidFrames', 'onInvalidFrame', 'maxFrameBytes', 'maxFrameDepth']);
  const invalidFrames = readOption<'error' | 'skip'>(
    config,
    'invalidFrames',
    (value) => value === 'error' || value === 'skip',
    "'error' or 'skip'",
    'error',
  );
  const onInvalidFrame = readFunction<(error: InvalidFrameError) => void, undefined>(
    config,
    'onInvalidFrame',
    undefined,
  );
  const limits: FrameDecoderConfig = {
    maxFrameBytes: config.maxFrameBytes,
    maxFrameDepth: config.maxFrameDepth,
  };
  createFrameDecoder(codec, limits); // validates maxFrameBytes before anything subscribes
  return operate((source, subscriber) => {
    const decoder = createFrameDecoder(codec, limits);
    const deliver = (results: ReadonlyArray<HostcallFrame | InvalidFrameError>) => {
      for (const result of results) {
        if (subscriber.closed) return;
        if (!isInvalidFrameError(result)) subscriber.next(result);
        else if (invalidFrames === 'error') subscriber.error(result);
        else onInvalidFrame?.(result);
      }
    };
    source.subscribe(
      createOperatorSubscriber<Uint8Array | string>(
        subscriber,
        (piece) => deliver(decoder.push(piece)),
        () => {
          deliver(decoder.end());
          subscriber.complete();
        },
      ),
    );
  });
}
