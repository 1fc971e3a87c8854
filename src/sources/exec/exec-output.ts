import type { ChunkMetadata } from '../../core/chunk.js';
import { ByteLineSplitter, type BytePieceSink } from './byte-line-splitter.js';
import type { ExecLines } from './exec-line-queue.js';
import type { ResolvedExecOptions } from './exec-options.js';
import type { ExecLineEvent } from './exec-types.js';
import { OutputAccumulator } from './output-accumulator.js';
import type { OutputStream } from './process-port.js';
import { type PieceSink, Utf8LineSplitter } from './utf8-line-splitter.js';

const PARTIAL: ChunkMetadata = Object.freeze({ partial: true });

/** What turns one pipe's reads into pieces: a line splitter, or a reader that passes reads on. */
interface PipeReader {
  push(bytes: Buffer): void;
  end(): void;
}

/**
 * The output side of one exec run: turns the reads of both pipes into sequenced line events (in
 * arrival order, `sequence` counting from 0 across both pipes) pushed into `events` (the run's line
 * queue), and keeps what the result reports (`stdout`/`stderr` up to `maxOutputBytes`). `next()`
 * gives the sequence of the final event.
 *
 * @example
 * ```ts
 * const output = new ExecOutput(options, queue);
 * output.read('stdout', bytes); // emits one event per whole line
 * output.end('stdout'); // emits the unterminated rest, if any
 * ```
 */
export class ExecOutput {
  readonly stdout: OutputAccumulator;
  readonly stderr: OutputAccumulator;
  readonly #events: Pick<ExecLines, 'push'>;
  readonly #readers: Record<OutputStream, PipeReader>;
  #sequence = 0;

  constructor(options: ResolvedExecOptions, events: Pick<ExecLines, 'push'>) {
    this.stdout = new OutputAccumulator(options.maxOutputBytes);
    this.stderr = new OutputAccumulator(options.maxOutputBytes);
    this.#events = events;
    this.#readers = { stdout: this.#reader(options, 'stdout'), stderr: this.#reader(options, 'stderr') };
  }

  /** One read of `stream`. */
  read(stream: OutputStream, bytes: Uint8Array): void {
    const buffer = Buffer.isBuffer(bytes)
      ? bytes
      : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this[stream].add(buffer);
    this.#readers[stream].push(buffer);
  }

  /** `stream` ended: what is left of its last line goes out. */
  end(stream: OutputStream): void {
    this.#readers[stream].end();
  }

  /** How many line events were emitted so far. */
  get lines(): number {
    return this.#sequence;
  }

  /** The next sequence number (the final event's, once the pipes ended). */
  next(): number {
    return this.#sequence++;
  }

  #reader(options: ResolvedExecOptions, kind: OutputStream): PipeReader {
    const events = this.#events;
    const sink = (content: string | Uint8Array, partial: boolean): void => {
      const sequence = this.#sequence++;
      events.push(
        (partial
          ? { sequence, kind, content, metadata: PARTIAL, isFinal: false }
          : { sequence, kind, content, isFinal: false }) as ExecLineEvent,
      );
    };
    if (options.encoding === 'buffer') {
      return options.lines ? new ByteLineSplitter(options.maxLineBytes, sink) : new ByteReader(sink);
    }
    return options.lines ? new Utf8LineSplitter(options.maxLineBytes, sink) : new ReadDecoder(sink);
  }
}

/**
 * The `lines: false, encoding: 'buffer'` reader: one piece per read, the bytes exactly as the
 * child wrote them (nothing decoded, nothing copied). Empty reads are not emitted.
 *
 * @example
 * ```ts
 * const reader = new ByteReader((bytes) => process.stdout.write(bytes));
 * reader.push(Buffer.from([0xff, 0xfe, 0x0a])); // written unchanged
 * ```
 */
export class ByteReader {
  readonly #sink: BytePieceSink;

  constructor(sink: BytePieceSink) {
    this.#sink = sink;
  }

  push(bytes: Buffer): void {
    if (bytes.length > 0) this.#sink(bytes, false);
  }

  end(): void {}
}

/**
 * The `lines: false` counterpart of {@link Utf8LineSplitter}: one piece per read, decoded with a
 * streaming `TextDecoder` so a multi-byte character split across two reads decodes whole (its
 * bytes go with the later read). Invalid bytes become U+FFFD; empty pieces are not emitted.
 *
 * @example
 * ```ts
 * const decoder = new ReadDecoder((text) => console.log(text));
 * decoder.push(Buffer.from([0xe2, 0x82]));
 * decoder.push(Buffer.from([0xac, 0x0a])); // logs '€\n'
 * decoder.end();
 * ```
 */
export class ReadDecoder {
  readonly #decoder = new TextDecoder('utf-8', { fatal: false });
  readonly #sink: PieceSink;

  constructor(sink: PieceSink) {
    this.#sink = sink;
  }

  push(bytes: Uint8Array): void {
    const text = this.#decoder.decode(bytes, { stream: true });
    if (text.length > 0) this.#sink(text, false);
  }

  end(): void {
    const text = this.#decoder.decode();
    if (text.length > 0) this.#sink(text, false);
  }
}
