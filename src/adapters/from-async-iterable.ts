import { Observable } from 'rxjs';
import { checkArgument } from '../core/check-argument.js';
import { demandOf } from '../core/subscriber-chain.js';

/**
 * An Observable of the values of an `AsyncIterable` that pulls **only on demand**.
 *
 * Each subscription takes a fresh iterator (`iterable[Symbol.asyncIterator]()`) and reads its
 * consumer's demand ({@link demandOf}: the demand of `toAsyncIterable`, `onChunk`,
 * `toReadableStream`, `bounded`… at the end of its subscriber chain). It then calls `next()` one at
 * a time, and only while that demand is not paused; when the demand resumes it pulls again.
 * Without demand (plain `subscribe()`) it pulls as fast as the iterator answers. At most one
 * value arrives after a pause (the answer to the `next()` already in flight).
 *
 * - completion of the iterator completes the Observable; a rejected `next()` (or one that
 *   throws) errors it;
 * - unsubscribing calls the iterator's `return()` (its rejection is ignored). An async
 *   generator suspended in an `await` only runs its `finally` blocks after that await settles.
 *
 * It emits the raw values; make chunk events of them with `map` and `sequenced()`.
 *
 * @param iterable an `AsyncIterable` (an async generator, a Node `Readable`, a readline interface…)
 * @throws TypeError when `iterable` is not an AsyncIterable
 *
 * @example
 * ```ts
 * import { createInterface } from 'node:readline';
 * import { map } from 'rxjs';
 * import { fromAsyncIterable, toAsyncIterable } from 'sluice/adapters';
 * import { sequenced } from 'sluice/operators';
 *
 * const events = fromAsyncIterable(createInterface({ input: socket })).pipe(
 *   map((line) => ({ kind: 'line', content: line })),
 *   sequenced(), // { sequence: 0, kind: 'line', content: '…', isFinal: false } … { kind: 'end', isFinal: true }
 * );
 * for await (const event of toAsyncIterable(events, { bufferSize: 8 })) await handle(event); // paces the socket
 * ```
 */
export function fromAsyncIterable<T>(iterable: AsyncIterable<T>): Observable<T> {
  checkArgument(
    iterable,
    'iterable',
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function',
    'an AsyncIterable',
  );
  return new Observable<T>((subscriber) => {
    const demand = demandOf(subscriber);
    const iterator = iterable[Symbol.asyncIterator]();
    let pulling = false;
    let ended = false;
    const pull = (): void => {
      if (pulling || ended || subscriber.closed || demand?.paused) return;
      pulling = true;
      let answer: Promise<IteratorResult<T>>;
      try {
        answer = Promise.resolve(iterator.next());
      } catch (error) {
        ended = true;
        subscriber.error(error);
        return;
      }
      answer.then(
        (result) => {
          pulling = false;
          if (ended || subscriber.closed) return;
          if (result.done) {
            ended = true;
            subscriber.complete();
            return;
          }
          subscriber.next(result.value);
          pull();
        },
        (error: unknown) => {
          pulling = false;
          if (ended || subscriber.closed) return;
          ended = true;
          subscriber.error(error);
        },
      );
    };
    const stopListening = demand?.onChange((paused) => {
      if (!paused) pull();
    });
    pull();
    return () => {
      stopListening?.();
      if (ended) return;
      ended = true;
      try {
        Promise.resolve(iterator.return?.()).catch(() => undefined);
      } catch {
        // a return() that throws synchronously has nothing left for us to clean up
      }
    };
  });
}
