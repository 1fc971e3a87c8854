import type { Demand } from '../../core/demand.js';
import { LineSplitter } from '../exec/line-splitter.js';

/**
 * What {@link pumpBody} reports to, and asks of, the exchange that runs it: `signal` is aborted
 * when the exchange is over, and `flowing` and `emit` (which waits for demand) resolve `false` then.
 */
export interface BodySink {
  readonly signal: AbortSignal;
  flowing(): Promise<boolean>;
  received(bytes: number): void;
  emit(content: Uint8Array | string, partial: boolean): Promise<boolean>;
}

/**
 * Reads a response body into `sink`, calling `read()` only while the demand flows, so a paused
 * consumer leaves the rest in the socket. With a `splitter`, each read becomes lines, emitted one
 * by one (each waits for demand: a pause holds back the lines already split); the last line
 * without a newline is emitted at the end, and also before a read error (a dropped connection)
 * is rethrown. Resolves `true` when the body ended, `false` when the exchange ended first.
 */
export async function pumpBody(
  body: ReadableStream<Uint8Array>,
  splitter: BodyLineSplitter | undefined,
  sink: BodySink,
): Promise<boolean> {
  const { signal } = sink;
  const reader = body.getReader();
  const cancel = () => reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', cancel, { once: true });
  const emitLine = (piece: LinePiece) => sink.emit(piece.text, piece.partial);
  try {
    for (;;) {
      if (!(await sink.flowing())) return false;
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await reader.read();
      } catch (error) {
        const rest = signal.aborted ? undefined : splitter?.flush();
        if (rest !== undefined) await emitLine(rest);
        throw error;
      }
      if (signal.aborted) return false;
      if (read.done) break;
      sink.received(read.value.byteLength);
      if (splitter === undefined) {
        if (!(await sink.emit(read.value, false))) return false;
        continue;
      }
      for (const piece of splitter.push(read.value)) if (!(await emitLine(piece))) return false;
    }
    const rest = splitter?.flush();
    return rest === undefined || (await emitLine(rest));
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

/** Resolves once `demand` flows or `signal` is aborted, and removes its listeners either way. */
export function waitForFlow(demand: Demand, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (!demand.paused || signal.aborted) {
      resolve();
      return;
    }
    const done = () => {
      stopListening();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const stopListening = demand.onChange((paused) => {
      if (!paused) done();
    });
    signal.addEventListener('abort', done, { once: true });
  });
}

/** One line (or, `partial`, a piece of a longer one: more follows) from a {@link BodyLineSplitter}. */
export interface LinePiece {
  readonly text: string;
  readonly partial: boolean;
}

/**
 * Splits a stream of UTF-8 bytes into decoded lines for `http`'s `lines: true`, with `exec`'s own
 * {@link LineSplitter}; this class only collects the pieces of each read so the body pump can
 * emit them one at a time, as demand allows.
 */
export class BodyLineSplitter {
  readonly #splitter: LineSplitter;
  #pieces: LinePiece[] = [];

  constructor(maxLineBytes: number) {
    this.#splitter = new LineSplitter(maxLineBytes, (text, partial) => this.#pieces.push({ text, partial }));
  }

  /** Feeds one read; returns the pieces it completes. At most `maxLineBytes` bytes stay pending. */
  push(chunk: Uint8Array): LinePiece[] {
    this.#splitter.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    return this.#take();
  }

  /** The bytes still pending (a last line without a newline), decoded; `undefined` if none. */
  flush(): LinePiece | undefined {
    this.#splitter.end();
    return this.#take()[0];
  }

  #take(): LinePiece[] {
    const pieces = this.#pieces;
    this.#pieces = [];
    return pieces;
  }
}
