import type { Observable } from 'rxjs';
import { checkArgument } from '../core/check-argument.js';
import { fromAsyncIterable } from './from-async-iterable.js';

/**
 * An Observable of the chunks of a WHATWG `ReadableStream` that reads **only on demand**.
 *
 * {@link fromAsyncIterable} over the stream's reader: subscribing locks the stream
 * (`getReader()`; a second subscription errors with the stream's `TypeError`), `reader.read()` is
 * called one at a time while its consumer's demand flows, the stream closing completes, its error
 * errors, and unsubscribing calls `reader.cancel()` (a `fetch` body aborts the download). The
 * stream's own queue (its `highWaterMark`) still fills on its side, as the stream's source decides.
 *
 * It emits the raw chunks; make chunk events of them with `map` and `sequenced()`.
 *
 * @param stream a `ReadableStream` (a `fetch` response body, a `TransformStream`'s readable…)
 * @throws TypeError when `stream` is not a ReadableStream
 *
 * @example
 * ```ts
 * import { map } from 'rxjs';
 * import { fromReadableStream, onChunk } from 'sluice/adapters';
 * import { sequenced } from 'sluice/operators';
 *
 * const response = await fetch(url);
 * const events = fromReadableStream(response.body!).pipe(
 *   map((bytes) => ({ kind: 'body', content: bytes })),
 *   sequenced(),
 * );
 * await onChunk(events, (event) => file.write(event.content)); // a slow disk pauses the download
 * ```
 */
export function fromReadableStream<T>(stream: ReadableStream<T>): Observable<T> {
  checkArgument(
    stream,
    'stream',
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      typeof (value as ReadableStream<unknown>).getReader === 'function',
    'a ReadableStream',
  );
  return fromAsyncIterable({ [Symbol.asyncIterator]: () => readerIterator(stream.getReader()) });
}

/** The reader as an iterator: the lock is released once the stream closed or failed; `return()` cancels it. */
function readerIterator<T>(reader: ReadableStreamDefaultReader<T>): AsyncIterator<T> {
  const release = (): void => {
    try {
      reader.releaseLock();
    } catch {
      // the lock is gone with the stream
    }
  };
  return {
    next: () => {
      const read = reader.read();
      // A branch of its own: the read itself goes on unchanged, with no extra hop per chunk.
      read.then((result) => result.done && release(), release);
      return read as Promise<IteratorResult<T>>;
    },
    return: () => reader.cancel().then(() => ({ done: true, value: undefined })),
  };
}
