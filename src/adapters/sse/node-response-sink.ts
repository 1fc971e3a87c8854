import type { ServerResponse } from 'node:http';
import type { SseSink } from './sse-sink.js';

/**
 * Opens an SSE response on a `node:http` `ServerResponse` (status 200, `text/event-stream`,
 * no caching, no proxy buffering, Nagle off) and wraps it as an {@link SseSink}: `write` is
 * `res.write` (its `false` is the socket's backpressure; frames written in one synchronous burst
 * are corked into one socket write), `onDrain` is the `'drain'` event, `onClose` the `'close'`
 * event.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { nodeResponseSink } from 'sluice/adapters';
 * createServer((req, res) => {
 *   const sink = nodeResponseSink(res);
 *   sink.write(': hello\n\n');
 *   sink.end();
 * });
 * ```
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
  // Frames written in one synchronous burst (a read of many lines) leave in one socket write.
  let corked = false;
  const uncork = () => {
    corked = false;
    res.uncork();
  };
  return {
    write: (text) => {
      if (!corked) {
        corked = true;
        res.cork();
        process.nextTick(uncork);
      }
      return res.write(text);
    },
    end: () => res.end(),
    destroy: () => res.destroy(),
    onDrain: (listener) => {
      res.on('drain', listener);
      return () => res.off('drain', listener);
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
