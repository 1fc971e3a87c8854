import { type Observable, Subscription } from 'rxjs';
import { subscribeWithDemand, Valve } from '../core/demand.js';

type Waiter<T> = {
  resolve: (result: IteratorResult<T, undefined>) => void;
  reject: (error: unknown) => void;
};
type Ending = { error: false } | { error: true; reason: unknown };

/**
 * The pull side shared by {@link toAsyncIterable} and {@link onChunk}: it subscribes to `source`
 * (lazily, on the first {@link PullQueue.next}) with its own {@link Valve} as the demand, keeps
 * what arrives in a FIFO, and hands values out one `next()` at a time.
 *
 * - **Hysteresis**: the valve is paused while nobody waits and `bufferSize` values are queued,
 *   and resumed only once the consumer has drained the queue to its low-water mark,
 *   `Math.floor(bufferSize / 2)` values (empty for `bufferSize` 1), or waits on an empty queue.
 *   A producer that honours demand is therefore never more than `bufferSize` values (plus what
 *   it had already read) ahead of the consumer, and the valve toggles once per
 *   `bufferSize - floor(bufferSize / 2)` values under a steady load instead of once per value.
 *   With `bufferSize` 0 it flows only while a `next()` waits.
 * - Pending `next()` calls are served in call order, each with its own value.
 * - An error is given to the first `next()` after every value queued before it; later calls
 *   (and the other waiters) get `done`. Completion gives `done` after the last value.
 * - {@link PullQueue.cancel} unsubscribes synchronously (the producer's teardown runs before it
 *   returns), drops the queue and settles every waiter with `done`.
 *
 * Internal to `src/adapters`.
 *
 * @example
 * ```ts
 * const queue = new PullQueue(source$, 16);
 * const first = await queue.next();
 * const second = queue.poll() ?? (await queue.next()); // poll(): a queued value, no promise
 * queue.cancel();
 * ```
 */
export class PullQueue<T> {
  readonly #source: Observable<T>;
  readonly #bufferSize: number;
  readonly #resumeAt: number;
  readonly #valve = new Valve();
  #values: T[] = [];
  #head = 0;
  readonly #waiters: Waiter<T>[] = [];
  #subscription: Subscription | undefined;
  #ending: Ending | undefined;
  #finished = false;

  constructor(source: Observable<T>, bufferSize: number) {
    this.#source = source;
    this.#bufferSize = bufferSize;
    this.#resumeAt = bufferSize === 0 ? -1 : Math.floor(bufferSize / 2);
  }

  /** The next value, `done` at the end, or a rejection with the source's error. */
  next(): Promise<IteratorResult<T, undefined>> {
    if (this.#finished) return Promise.resolve({ done: true, value: undefined });
    if (this.#head < this.#values.length) return Promise.resolve(this.#take());
    if (this.#ending !== undefined) return this.#end();
    const pending = new Promise<IteratorResult<T, undefined>>((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
    });
    this.#update();
    if (this.#subscription === undefined) this.#subscribe();
    return pending;
  }

  /**
   * A value that is already queued, taken synchronously (no promise, no microtask), or
   * `undefined` when none is: then call {@link PullQueue.next}, which also reports the end.
   */
  poll(): IteratorResult<T, undefined> | undefined {
    return this.#finished || this.#head === this.#values.length ? undefined : this.#take();
  }

  /** Unsubscribes from the source (running its teardown now), drops the queue, ends every waiter. */
  cancel(): void {
    this.#finished = true;
    this.#subscription?.unsubscribe();
    this.#subscription ??= Subscription.EMPTY;
    this.#values = [];
    this.#head = 0;
    for (const waiter of this.#waiters.splice(0)) waiter.resolve({ done: true, value: undefined });
  }

  #subscribe(): void {
    const subscription = new Subscription();
    this.#subscription = subscription;
    subscription.add(
      subscribeWithDemand(this.#valve, () =>
        this.#source.subscribe({
          next: (value) => this.#push(value),
          error: (reason: unknown) => this.#finish({ error: true, reason }),
          complete: () => this.#finish({ error: false }),
        }),
      ),
    );
    if (this.#finished) subscription.unsubscribe();
  }

  #push(value: T): void {
    if (this.#finished) return;
    if (this.#waiters.length > 0) (this.#waiters.shift() as Waiter<T>).resolve({ done: false, value });
    else this.#values.push(value);
    this.#update();
  }

  #finish(ending: Ending): void {
    if (this.#finished || this.#ending !== undefined) return;
    this.#ending = ending;
    if (this.#waiters.length === 0) return;
    const [first, ...rest] = this.#waiters.splice(0);
    this.#finished = true;
    if (ending.error) first?.reject(ending.reason);
    else first?.resolve({ done: true, value: undefined });
    for (const waiter of rest) waiter.resolve({ done: true, value: undefined });
  }

  /** Only while a value is queued. */
  #take(): IteratorResult<T, undefined> {
    const value = this.#values[this.#head] as T;
    this.#values[this.#head] = undefined as T;
    this.#head += 1;
    if (this.#head === this.#values.length) {
      this.#values.length = 0;
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#values.length) {
      this.#values = this.#values.slice(this.#head);
      this.#head = 0;
    }
    if (this.#valve.paused) {
      this.#valve.progress();
      this.#update();
    }
    return { done: false, value };
  }

  #end(): Promise<IteratorResult<T, undefined>> {
    this.#finished = true;
    const ending = this.#ending;
    return ending?.error ? Promise.reject(ending.reason) : Promise.resolve({ done: true, value: undefined });
  }

  /** Pauses at `bufferSize` queued with nobody waiting; resumes at the low-water mark or a waiter. */
  #update(): void {
    if (this.#ending !== undefined || this.#finished) return;
    const queued = this.#values.length - this.#head;
    if (this.#valve.paused) {
      if (queued <= this.#resumeAt || this.#waiters.length > 0) this.#valve.resume();
    } else if (queued >= this.#bufferSize && this.#waiters.length === 0) {
      this.#valve.pause();
    }
  }
}
