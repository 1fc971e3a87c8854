import type { ServerResponse } from 'node:http';
import type { SseSink } from './sse-sink.js';

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
