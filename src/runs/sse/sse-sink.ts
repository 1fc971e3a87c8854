import type { ServerResponse } from 'node:http';

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

/**
 * Opens an SSE response on a `node:http` `ServerResponse` (status 200, `text/event-stream`,
 * no caching, no proxy buffering, Nagle off) and wraps it as an {@link SseSink}. Frames written
 * in one synchronous burst (a read of many lines) are joined and leave in one `res.write` on the
 * next tick; `write` returns `false` once what waits (joined or in the socket) reaches the
 * response's high-water mark, or while the socket says it is full, and `onDrain` follows when
 * it has room again; `onClose` is the `'close'` event.
 */
export function nodeResponseSink(res: ServerResponse): SseSink {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.socket?.setNoDelay(true);
  res.flushHeaders();
  // Joined here rather than with `res.cork()`: on Node 22 and 24 a response corked until the next
  // tick answers `true` to every `write`, however much waits (no backpressure), and loses what it
  // holds if it ends before the uncork.
  const highWaterMark = res.writableHighWaterMark;
  let pending = '';
  let socketFull = false; // `res.write` answered `false`: its 'drain' is due
  let owed = false; // a writer was told to wait: it gets a drain
  const drainListeners = new Set<() => void>();
  const drained = () => {
    if (!owed || socketFull) return;
    owed = false;
    for (const listener of [...drainListeners]) listener();
  };
  const flush = () => {
    if (pending === '') return;
    const text = pending;
    pending = '';
    if (res.writableEnded || res.destroyed) return;
    if (!res.write(text)) socketFull = true;
    drained();
  };
  const onResponseDrain = () => {
    socketFull = false;
    drained();
  };
  res.on('drain', onResponseDrain);
  return {
    write: (text) => {
      if (pending === '') process.nextTick(flush);
      pending += text;
      const room = !socketFull && pending.length + res.writableLength < highWaterMark;
      if (!room) owed = true;
      return room;
    },
    end: () => {
      flush();
      res.end();
    },
    destroy: () => {
      pending = '';
      res.destroy();
    },
    onDrain: (listener) => {
      drainListeners.add(listener);
      return () => drainListeners.delete(listener);
    },
    onClose: (listener) => {
      if (res.closed) {
        queueMicrotask(listener);
        return () => {};
      }
      res.once('close', listener);
      return () => res.off('close', listener);
    },
  };
}

/**
 * A WHATWG `ReadableStream` of UTF-8 bytes fed through an {@link SseSink}: `write` enqueues and
 * returns `false` once `highWaterMark` chunks wait unread; the stream's `pull` is the drain; a
 * reader's `cancel()` is the close. Use the stream as a fetch-style `Response` body.
 */
export function readableStreamSink(highWaterMark: number): {
  stream: ReadableStream<Uint8Array>;
  sink: SseSink;
} {
  const encoder = new TextEncoder();
  const drainListeners = new Set<() => void>();
  const closeListeners = new Set<() => void>();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    drainListeners.clear();
    for (const listener of [...closeListeners]) listener();
    closeListeners.clear();
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start: (c) => {
        controller = c;
      },
      pull: () => {
        for (const listener of [...drainListeners]) listener();
      },
      cancel: () => close(),
    },
    new CountQueuingStrategy({ highWaterMark }),
  );
  const sink: SseSink = {
    write: (text) => {
      if (closed) return true;
      controller.enqueue(encoder.encode(text));
      return (controller.desiredSize ?? 0) > 0;
    },
    end: () => {
      if (closed) return;
      controller.close();
      close();
    },
    destroy: () => {
      if (closed) return;
      controller.error(new Error('SSE stream dropped by the server'));
      close();
    },
    onDrain: (listener) => {
      drainListeners.add(listener);
      return () => drainListeners.delete(listener);
    },
    onClose: (listener) => {
      if (closed) {
        queueMicrotask(listener);
        return () => {};
      }
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
  };
  return { stream, sink };
}
