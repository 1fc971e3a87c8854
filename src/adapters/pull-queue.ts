import { type Observable, type Subscriber, Subscription } from 'rxjs';
import { DemandQueue, halfWater, type QueueEnding } from '../core/queue/demand-queue.js';
import { Credit } from '../core/queue/queue-outlet.js';
import { RingQueue } from '../core/queue/ring-queue.js';
import { ObserverSubscriber, offerDirectSink, subscribeWithDemand } from '../core/subscriber-chain.js';
import type { Overfill } from './ignored-demand.js';

type Waiter<T> = {
  resolve: (result: IteratorResult<T, undefined>) => void;
  reject: (error: unknown) => void;
};

const DONE = Object.freeze({ done: true, value: undefined }) as IteratorResult<never, undefined>;

/**
 * The pull side shared by {@link toAsyncIterable} and {@link onChunk}: a {@link DemandQueue}
 * whose {@link Credit} is the pending `next()` calls. It subscribes to `source` lazily, on the first
 * {@link PullQueue.next}, carrying the queue's valve as its demand; the hysteresis, order, ends
 * and cancel are {@link toAsyncIterable}'s. Beyond those:
 *
 * - the subscriber it makes offers the queue as a direct sink (`src/core/subscriber-chain.ts`):
 *   what a producer subscribed with nothing between pushes there is not counted by `overfill`;
 * - {@link PullQueue.cancel} leaves the valve flowing (a consumer that left never holds a shared
 *   producer back).
 *
 * Internal to `src/adapters`.
 */
export class PullQueue<T> {
  readonly #source: Observable<T>;
  readonly #queue: DemandQueue<T>;
  readonly #credit = new Credit();
  #overfill: Overfill | undefined;
  readonly #waiters = new RingQueue<Waiter<T>>();
  #subscription: Subscription | undefined;
  #ending: QueueEnding | undefined;
  // Flags are tested with `=== true` (docs/performance.md, "Flags tested against `true`").
  #finished = false;

  constructor(source: Observable<T>, bufferSize: number, overfill?: Overfill) {
    this.#source = source;
    this.#overfill = overfill;
    this.#queue = new DemandQueue<T>(
      {
        highWater: bufferSize,
        lowWater: halfWater(bufferSize),
        deliver: (value) => (this.#waiters.shift() as Waiter<T>).resolve({ done: false, value }),
        finish: (ending) => this.#finish(ending),
      },
      this.#credit,
    );
  }

  /**
   * The next value, `done` at the end, or a rejection with the source's error. An arrow bound to
   * its queue, so an iterator may take it as its own `next` (one call per value, and usable
   * detached); every queue's is made at the same place, so V8 optimizes the call site that calls
   * them as one function, run after run.
   */
  readonly next = (): Promise<IteratorResult<T, undefined>> => {
    if (this.#finished === true) return Promise.resolve(DONE);
    const queue = this.#queue;
    if (queue.size > 0) return Promise.resolve({ done: false, value: queue.take() as T });
    if (this.#ending !== undefined) return this.#end();
    const pending = new Promise<IteratorResult<T, undefined>>((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
    });
    this.#credit.request(1);
    if (this.#subscription === undefined) this.#subscribe();
    return pending;
  };

  /**
   * A value that is already queued, taken synchronously (no promise, no microtask), or
   * `undefined` when none is: then call {@link PullQueue.next}, which also reports the end.
   */
  poll(): IteratorResult<T, undefined> | undefined {
    if (this.#finished === true || this.#queue.size === 0) return undefined;
    return { done: false, value: this.#queue.take() as T };
  }

  /** Ends the stream with `error` after the values already queued, and cancels the source. */
  fail(error: unknown): void {
    if (this.#finished === true || this.#queue.ended) return;
    this.#subscription?.unsubscribe();
    this.#queue.end({ error: true, reason: error });
  }

  /** Unsubscribes from the source (running its teardown now), drops the queue, ends every waiter. */
  cancel(): void {
    this.#finished = true;
    this.#subscription?.unsubscribe();
    this.#subscription ??= Subscription.EMPTY;
    this.#queue.close();
    this.#queue.producerValve.resume();
    for (let waiter = this.#waiters.shift(); waiter; waiter = this.#waiters.shift()) waiter.resolve(DONE);
  }

  #subscribe(): void {
    const subscription = new Subscription();
    this.#subscription = subscription;
    const queue = this.#queue;
    const subscriber = new ObserverSubscriber<T>({
      next: (value) => {
        if (this.#finished === true) return;
        queue.push(value);
        if (this.#overfill !== undefined && queue.size >= this.#overfill.at) this.#overfilled();
      },
      error: (reason: unknown) => queue.end({ error: true, reason }),
      complete: () => queue.end({ error: false }),
    });
    // A producer subscribed to this very subscriber (`toAsyncIterable(exec(…))`) may push into the
    // queue itself: what it pushes after the valve paused is the rest of a read it already made,
    // not demand ignored, so it is not counted towards the ignored-demand warning.
    offerDirectSink<Subscriber<T>, T>(subscriber, {
      demand: queue.producerValve,
      // A finished stream's queue is closed or ended: it ignores what comes.
      push: (value) => queue.push(value),
    });
    subscribeWithDemand(this.#source, queue.producerValve, subscriber, subscription);
    if (this.#finished === true) subscription.unsubscribe();
  }

  #overfilled(): void {
    const overfill = this.#overfill as Overfill;
    this.#overfill = undefined;
    overfill.call(this.#queue.size);
  }

  #finish(ending: QueueEnding): void {
    this.#ending = ending;
    this.#queue.producerValve.resume();
    const first = this.#waiters.shift();
    if (first === undefined) return;
    this.#finished = true;
    if (ending.error) first.reject(ending.reason);
    else first.resolve(DONE);
    for (let waiter = this.#waiters.shift(); waiter; waiter = this.#waiters.shift()) waiter.resolve(DONE);
  }

  #end(): Promise<IteratorResult<T, undefined>> {
    this.#finished = true;
    const ending = this.#ending;
    return ending?.error ? Promise.reject(ending.reason) : Promise.resolve(DONE);
  }
}
