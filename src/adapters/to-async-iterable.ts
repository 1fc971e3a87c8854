import { isObservable, type Observable } from 'rxjs';
import { checkArgument } from '../core/check-argument.js';
import { type IgnoredDemandOptions, readAdapterOptions } from './ignored-demand.js';
import { PullQueue } from './pull-queue.js';

/** Options of {@link toAsyncIterable}. */
export interface ToAsyncIterableOptions extends IgnoredDemandOptions {
  /** How many values may wait before the producer is paused (default `16`; `0`: only while a `next()` waits). */
  readonly bufferSize?: number;
}

/**
 * Consumes an Observable as a pull-driven `AsyncIterableIterator`: each `next()` is demand.
 *
 * - **Lazy**: nothing subscribes until the first `next()`. It then subscribes with its own
 *   `Valve` as the demand, carried on the subscriber chain: a demand-aware producer such as
 *   `exec` finds it through `map`, `filter`, `tap`, and also when it is subscribed later by
 *   `concatMap`, `mergeMap`, `switchMap`, `concat`, `retry`, `repeat`, `catchError`…
 * - **Bounded, with hysteresis**: the valve is paused while `bufferSize` values wait and no
 *   `next()` is pending, and resumed once the consumer has taken the queue down to
 *   `Math.floor(bufferSize / 2)` values (to empty for `bufferSize` 1; with `0`, whenever a
 *   `next()` waits): paused once per about `bufferSize / 2` values, not once per value
 *   (docs/backpressure.md, "One queue"). A producer that ignores demand (`fromEvent`, a plain
 *   `Subject`, `delay`…) makes the buffer grow: see `onIgnoredDemand`, or put `bounded(…)` in
 *   front of the adapter to cap it.
 * - **Ordered**: values come out in arrival order; `next()` calls made without awaiting are
 *   resolved in call order, each with its own value.
 * - **Ends**: for a chunk stream the final event is yielded like any other value, then `done`.
 *   An error is thrown from `next()` only after every value received before it was yielded;
 *   after that, `done`.
 * - **Cancel**: `return()` (what `break` calls) and `throw()` unsubscribe — the producer's
 *   teardown (killing the process group, aborting the request) runs *before* their promise
 *   settles; pending and later `next()` calls give `done`. `throw(error)` rejects with `error`.
 *
 * @param source the Observable to consume (usually a stream of `ChunkEvent`s)
 * @param options `bufferSize` (default 16), validated before anything subscribes
 * @throws TypeError when `source` is not an Observable or an option is invalid
 *
 * @example
 * ```ts
 * import { filter, map } from 'rxjs';
 * import { exec } from 'sluice/sources';
 * import { toAsyncIterable } from 'sluice/adapters';
 *
 * const lines = exec('make', ['test']).pipe(
 *   filter((event) => event.kind === 'stdout'),
 *   map((event) => event.content),
 * );
 * for await (const line of toAsyncIterable(lines, { bufferSize: 16 })) {
 *   if (line.includes('FAIL')) break; // kills make's whole process group
 * }
 * ```
 */
export function toAsyncIterable<T>(
  source: Observable<T>,
  options?: ToAsyncIterableOptions,
): AsyncIterableIterator<T> {
  checkArgument(source, 'source', isObservable, 'an Observable');
  const { size, overfill } = readAdapterOptions(options, 'toAsyncIterable', 'bufferSize', (error) =>
    queue.fail(error),
  );
  const queue: PullQueue<T> = new PullQueue(source, size, overfill);
  const iterator: AsyncIterableIterator<T> = {
    // The queue's own arrow: one call per value on the hot path, not a wrapper calling it.
    next: queue.next as () => Promise<IteratorResult<T>>,
    return: (value?: unknown) => {
      queue.cancel();
      return Promise.resolve({ done: true, value } as IteratorResult<T>);
    },
    throw: (error?: unknown) => {
      queue.cancel();
      return Promise.reject(error);
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
