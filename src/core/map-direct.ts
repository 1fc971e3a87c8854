import type { OperatorFunction, Subscriber } from 'rxjs';
import type { Demand } from './demand.js';
import { createOperatorSubscriber, operate } from './operate.js';
import { type DirectSink, directSinkOf, offerDirectSink } from './subscriber-chain.js';

/**
 * RxJS's `map`, except that a direct sink offered below is offered on to the producer above,
 * mapped: exec still pushes into the consumer's queue, each value through `project`.
 */
export function mapDirect<T, R>(project: (value: T) => R): OperatorFunction<T, R> {
  return operate<T, R>((source, subscriber) => {
    const inner = createOperatorSubscriber<T>(subscriber, (value) => subscriber.next(project(value)));
    const sink = directSinkOf<R>(subscriber);
    if (sink !== undefined) offerDirectSink(inner, new MappedSink(project, sink, subscriber));
    source.subscribe(inner);
  });
}

/** The sink `mapDirect` offers above: a class (docs/performance.md, "One call target per call site"). */
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
