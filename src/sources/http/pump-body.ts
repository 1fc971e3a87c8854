import type { BodyLineSplitter, LinePiece } from './body-line-splitter.js';

/** What {@link pumpBody} reports to, and asks of, the exchange that runs it. */
export interface BodySink {
  /** Aborted when the exchange is over (unsubscribe, timeout, failure). */
  readonly signal: AbortSignal;
  /** Resolves `true` once the demand flows, `false` if the exchange ended while waiting. */
  flowing(): Promise<boolean>;
  /** Counts the bytes of one read. */
  received(bytes: number): void;
  /** Emits one `body` event (after waiting for demand); `false` when the exchange is over. */
  emit(content: Uint8Array | string, partial: boolean): Promise<boolean>;
}

/**
 * Reads a response body into `sink`, calling `read()` only while the demand flows, so a paused
 * consumer leaves the rest in the socket. With a `splitter`, each read becomes lines, emitted one
 * by one (each waits for demand: a pause holds back the lines already split); the last line
 * without a newline is emitted at the end, and also before a read error (a dropped connection)
 * is rethrown. Resolves `true` when the body ended, `false` when the exchange ended first.
 *
 * @example
 * ```ts
 * if (!(await pumpBody(response.body, new BodyLineSplitter(65_536), sink))) return;
 * ```
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
