import { Observable } from 'rxjs';
import { checkArgument } from '../core/check-argument.js';
import { demandOf } from '../core/subscriber-chain.js';

/**
 * An Observable of the chunks of a WHATWG `ReadableStream` that reads **only on demand**.
 *
 * Subscribing locks the stream (`getReader()`; a stream can be read by one subscription only —
 * a second one errors with the stream's `TypeError`) and reads its consumer's
 * demand ({@link demandOf}). It then calls `reader.read()` one at a time, only while that demand is not
 * paused, and again when it resumes; without demand it reads as fast as the stream answers. At
 * most one chunk arrives after a pause (the answer to the `read()` in flight). The stream's own
 * queue (its `highWaterMark`) still fills on its side, as the stream's source decides.
 *
 * - the stream closing completes the Observable; the stream erroring errors it;
 * - unsubscribing calls `reader.cancel()` (the stream's source is cancelled: a `fetch` body
 *   aborts the download).
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
  return new Observable<T>((subscriber) => {
    const demand = demandOf(subscriber);
    const reader = stream.getReader();
    let reading = false;
    let ended = false;
    const finish = (): void => {
      ended = true;
      try {
        reader.releaseLock();
      } catch {
        // the lock is gone with the stream
      }
    };
    const read = (): void => {
      if (reading || ended || subscriber.closed || demand?.paused) return;
      reading = true;
      reader.read().then(
        (result) => {
          reading = false;
          if (ended || subscriber.closed) return;
          if (result.done) {
            finish();
            subscriber.complete();
            return;
          }
          subscriber.next(result.value);
          read();
        },
        (error: unknown) => {
          reading = false;
          if (ended || subscriber.closed) return;
          finish();
          subscriber.error(error);
        },
      );
    };
    const stopListening = demand?.onChange((paused) => {
      if (!paused) read();
    });
    read();
    return () => {
      stopListening?.();
      if (ended) return;
      ended = true;
      reader.cancel().catch(() => undefined);
    };
  });
}
