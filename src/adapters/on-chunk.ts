import { isObservable, type Observable } from 'rxjs';
import { checkArgument } from '../core/check-argument.js';
import { isAbortSignal } from '../core/is-abort-signal.js';
import { readFunction } from '../core/read-function.js';
import { readOption } from '../core/read-option.js';
import { type IgnoredDemandOptions, readAdapterOptions } from './ignored-demand.js';
import { PullQueue } from './pull-queue.js';

/** Options of {@link onChunk}. */
export interface OnChunkOptions<T> extends IgnoredDemandOptions {
  /** How many chunks may wait while the callback is busy before the producer is paused. Default `16`. */
  readonly bufferSize?: number;
  /**
   * Called when `callback` throws or its promise rejects, with the error and the chunk it was
   * handling; the stream goes on with the next chunk. Default: `console.error` with a one-line
   * message (a failing callback is never silent). What `onError` itself throws is ignored.
   */
  readonly onError?: (error: unknown, chunk: T) => void;
  /** Aborting it unsubscribes (kills the producer) and rejects the promise with `signal.reason`. */
  readonly signal?: AbortSignal;
}

/**
 * Feeds every value of `source` to `callback`, in order and one at a time, and resolves with
 * the **last value** — for a chunk stream, its final event (an `exec` stream's `exit` event with
 * the `ExecResult`); `undefined` if the source completed without a value.
 *
 * - **Backpressure**: if `callback` returns a promise, the next chunk waits for it. Meanwhile
 *   up to `bufferSize` chunks are queued, then the producer is paused through the demand
 *   protocol (a child process blocks on its full pipe), and resumed once the callback has
 *   worked the queue down to half of `bufferSize` (the same hysteresis as `toAsyncIterable`).
 * - **A misbehaving callback can't crash the stream**: a throw or a rejection is caught here,
 *   reported to `onError(error, chunk)`, and the next chunk is delivered; the result is unchanged.
 * - **Errors**: the promise rejects with the source's error, after every chunk received before
 *   it went through `callback`.
 * - **Cancel**: aborting `signal` unsubscribes at once (the producer's teardown runs
 *   synchronously in the `abort` event) and rejects with `signal.reason`; a chunk the callback
 *   is handling finishes, no further chunk is delivered.
 *
 * Subscribes immediately (the returned promise is the consumer). Options are validated first.
 *
 * @param source the Observable to consume
 * @param callback receives each value; may return a promise to pace the producer
 * @throws TypeError (synchronously) when an argument or option is invalid
 *
 * @example
 * ```ts
 * import { exec } from 'sluice/sources';
 * import { onChunk } from 'sluice/adapters';
 *
 * const exit = await onChunk(exec('npm', ['test']), async (event) => {
 *   if (event.kind !== 'exit') await appendToLog(event.content); // slow writes pace npm
 * }, { bufferSize: 16, onError: (error, event) => console.warn('log failed at', event.sequence, error) });
 * console.log(exit?.content?.exitCode);
 * ```
 */
export function onChunk<T>(
  source: Observable<T>,
  callback: (chunk: T) => unknown,
  options?: OnChunkOptions<T>,
): Promise<T | undefined> {
  checkArgument(source, 'source', isObservable, 'an Observable');
  checkArgument(callback, 'callback', (value) => typeof value === 'function', 'a function');
  let queue: PullQueue<T> | undefined;
  const { size, overfill } = readAdapterOptions(
    options,
    'onChunk',
    'bufferSize',
    (error) => queue?.fail(error),
    ['onError', 'signal'],
  );
  const onError = readFunction<(error: unknown, chunk: T) => void>(options, 'onError', reportToConsole);
  const signal = readOption(options, 'signal', isAbortSignal, 'an AbortSignal', undefined);

  return new Promise<T | undefined>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const pull = new PullQueue(source, size, overfill);
    queue = pull;
    const abort = () => {
      pull.cancel();
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
    const report = (error: unknown, chunk: T) => {
      try {
        onError(error, chunk);
      } catch {
        // onError is the last boundary: what it throws must not end the stream either.
      }
    };
    const run = async (): Promise<T | undefined> => {
      let last: T | undefined;
      for (;;) {
        // A queued chunk is taken synchronously: no promise and no microtask per chunk.
        const result = pull.poll() ?? (await pull.next());
        if (result.done) return last;
        last = result.value;
        try {
          const returned = callback(result.value);
          if (isPromiseLike(returned)) await returned;
        } catch (error) {
          report(error, result.value);
        }
      }
    };
    run()
      .then(resolve, reject)
      .finally(() => signal?.removeEventListener('abort', abort));
  });
}

function reportToConsole(error: unknown): void {
  console.error('sluice: an onChunk callback failed; the stream goes on:', error);
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as PromiseLike<unknown>).then === 'function'
  );
}
