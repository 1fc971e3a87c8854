import type { Writable } from 'node:stream';

/**
 * Writes `data` to `stream` and, when the stream's buffer is full, returns a promise that settles
 * once it may be written again: on `'drain'` — or on `'close'` or `'error'`, so that a reader that
 * went away (`EPIPE`) never leaves the caller waiting. Returns `undefined` when there is room. A
 * stream already destroyed is not written to. Writes made while one wait is pending share it. This is how the CLI's output paces the command.
 */
export function writePaced(stream: Writable, data: string | Uint8Array): Promise<void> | undefined {
  if (stream.destroyed || stream.writableEnded) return undefined;
  if (stream.write(data)) return undefined;
  return drained(stream);
}

/** One wait per stream: writes of a batch past a full buffer share it, adding no listeners. */
const waits = new WeakMap<Writable, Promise<void>>();

function drained(stream: Writable): Promise<void> {
  const pending = waits.get(stream);
  if (pending !== undefined) return pending;
  const wait = new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      waits.delete(stream);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    stream.on('error', done);
  });
  waits.set(stream, wait);
  return wait;
}
