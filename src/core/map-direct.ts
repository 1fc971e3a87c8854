import type { OperatorFunction } from 'rxjs';
import { directSinkOf, offerDirectSink } from './direct-sink.js';
import { createOperatorSubscriber, operate } from './operate.js';

/**
 * RxJS's `map`, except that a direct sink offered below (`src/core/direct-sink.ts`) is offered on
 * to the producer above, mapped: `exec(…).pipe(mapDirect(toChunk))` subscribed by a consumer that
 * offers its queue still lets exec push into that queue, each value through `project`. What
 * `project` throws errors the stream, as with `map`. Internal: not exported from the package.
 *
 * @example
 * ```ts
 * const chunks = exec(payload.cmd, payload.args).pipe(mapDirect(execEventToChunk));
 * ```
 */
export function mapDirect<T, R>(project: (value: T) => R): OperatorFunction<T, R> {
  return operate<T, R>((source, subscriber) => {
    const inner = createOperatorSubscriber<T>(subscriber, (value) => subscriber.next(project(value)));
    const sink = directSinkOf<R>(subscriber);
    if (sink !== undefined) {
      offerDirectSink(inner, {
        demand: sink.demand,
        push: (value: T) => {
          let mapped: R;
          try {
            mapped = project(value);
          } catch (error) {
            subscriber.error(error);
            return;
          }
          sink.push(mapped);
        },
      });
    }
    source.subscribe(inner);
  });
}
