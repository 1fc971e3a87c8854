import type { Demand } from './demand.js';

const SINK = Symbol.for('sluice.directSink');

/**
 * A consumer's queue offered to the producer it subscribes to *directly* (nothing in between):
 * the producer may push into it instead of calling `subscriber.next` per value, and follows its
 * `demand` (the queue's valve). What it saves is a second queue on the hot path: `exec` keeps the
 * lines of the read in hand in its own queue while the consumer is paused; with a direct sink
 * they wait in the consumer's queue instead, once (docs/performance.md, "One queue on the hot path"). Ending, errors and
 * teardown still go through the subscriber. Internal: not exported from the package.
 */
export interface DirectSink<T> {
  /** The consumer's demand: the producer stops reading while it is paused. */
  readonly demand: Demand;
  /** Takes one value, in order with every other value and behind none of them. */
  push(value: T): void;
}

type Carrier = { [SINK]?: DirectSink<unknown> };

/**
 * Offers `sink` on `subscriber` (a subscriber made for one subscription, whose `next` does what
 * `sink.push` does). Only the producer given exactly this subscriber finds it: any operator in
 * between subscribes with a subscriber of its own, which carries none.
 *
 * @example
 * ```ts
 * const subscriber = offerDirectSink(new ObserverSubscriber(observer), { demand: queue.upstream, push });
 * ```
 */
export function offerDirectSink<S extends object, T>(subscriber: S, sink: DirectSink<T>): S {
  Object.defineProperty(subscriber, SINK, { value: sink });
  return subscriber;
}

/**
 * The {@link DirectSink} the producer's own `subscriber` offers, if any (never one further down
 * the chain: the values would skip the operators between).
 *
 * @example
 * ```ts
 * const sink = directSinkOf<ExecEvent>(subscriber); // toAsyncIterable(exec(…)): the iterator's queue
 * ```
 */
export function directSinkOf<T>(subscriber: object): DirectSink<T> | undefined {
  return Object.hasOwn(subscriber, SINK) ? ((subscriber as Carrier)[SINK] as DirectSink<T>) : undefined;
}
