import type { Writable } from 'node:stream';

/**
 * Writes `data` to `stream` and, when the stream's buffer is full, returns a promise that settles
 * once it may be written again: on `'drain'` — or on `'close'` or `'error'`, so that a reader that
 * went away (`EPIPE`) never leaves the caller waiting. Returns `undefined` when there is room. A
 * stream already destroyed is not written to. This is how the CLI's output paces the command.
 *
 * @example
 * ```ts
 * await writePaced(process.stdout, line);
 * ```
 */
export function writePaced(stream: Writable, data: string | Uint8Array): Promise<void> | undefined {
  if (stream.destroyed || stream.writableEnded) return undefined;
  if (stream.write(data)) return undefined;
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    stream.on('error', done);
  });
}
