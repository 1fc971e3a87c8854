import type { OperatorFunction, Subscriber } from 'rxjs';
import type { Demand } from './demand.js';
import { createOperatorSubscriber, operate } from './operate.js';
import { type DirectSink, directSinkOf, offerDirectSink } from './subscriber-chain.js';

/**
 * RxJS's `map`, except that a direct sink offered below (`src/core/subscriber-chain.ts`) is offered on
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
    if (sink !== undefined) offerDirectSink(inner, new MappedSink(project, sink, subscriber));
    source.subscribe(inner);
  });
}

/**
 * The direct sink `mapDirect` offers above: a class, not an object of closures made per
 * subscription, so that the producer's call site sees one `push` for every stream and V8's
 * optimized code holds for the next one (docs/performance.md, "One call target per call site").
 */
class MappedSink<T, R> implements DirectSink<T> {
  readonly demand: Demand;
  readonly #project: (value: T) => R;
  readonly #sink: DirectSink<R>;
  readonly #subscriber: Subscriber<R>;

  constructor(project: (value: T) => R, sink: DirectSink<R>, subscriber: Subscriber<R>) {
    this.demand = sink.demand;
    this.#project = project;
    this.#sink = sink;
    this.#subscriber = subscriber;
  }

  push(value: T): void {
    let mapped: R;
    try {
      mapped = this.#project(value);
    } catch (error) {
      this.#subscriber.error(error);
      return;
    }
    this.#sink.push(mapped);
  }
}
