import type { SseSink } from './sse-sink.js';

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
