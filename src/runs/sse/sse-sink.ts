/**
 * Where one SSE client's frames go: a `node:http` response ({@link nodeResponseSink}) or a
 * WHATWG `ReadableStream` ({@link readableStreamSink}). `write` returns `false` when the
 * transport's buffer is full: the client then waits for `onDrain` before writing again.
 */
export interface SseSink {
  /** Writes text; `false` means "buffer full, wait for drain". */
  write(text: string): boolean;
  /** Ends the response normally (after what was written). */
  end(): void;
  /** Drops the connection at once. */
  destroy(): void;
  /** Calls `listener` when the buffer has room again; returns a function that stops listening. */
  onDrain(listener: () => void): () => void;
  /** Calls `listener` once when the connection is gone (ended, destroyed, or closed by the peer). */
  onClose(listener: () => void): () => void;
}
