import type { ChunkMetadata } from '../../core/chunk.js';
import type { ExecLines } from './exec-line-queue.js';
import type { ResolvedExecOptions } from './exec-options.js';
import type { ExecLineEvent } from './exec-types.js';
import { LineSplitter, type PieceSink } from './line-splitter.js';
import { OutputAccumulator } from './output-accumulator.js';
import type { OutputStream } from './process-port.js';

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
    return options.lines
      ? new LineSplitter(options.maxLineBytes, sink, options.encoding)
      : readDecoder(sink, options.encoding);
  }
}

/**
 * The `lines: false` reader: one piece per read. Text is decoded with a streaming `TextDecoder`,
 * so a character split across two reads decodes whole (its bytes go with the later read); bytes
 * pass as the child wrote them. Empty pieces are not emitted.
 */
function readDecoder(sink: PieceSink<string | Uint8Array>, encoding: 'utf8' | 'buffer'): PipeReader {
  const emit = (content: string | Uint8Array): void => {
    if (content.length > 0) sink(content, false);
  };
  if (encoding === 'buffer') return { push: emit, end() {} };
  const decoder = new TextDecoder();
  return {
    push: (bytes) => emit(decoder.decode(bytes, { stream: true })),
    end: () => emit(decoder.decode()),
  };
}
