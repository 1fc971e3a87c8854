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
 * - The valve is paused while nobody waits and `bufferSize` values are queued; it resumes as
 *   soon as a consumer takes one (or waits). A producer that honours demand is therefore never
 *   more than `bufferSize` values (plus what it had already read) ahead of the consumer.
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
 * queue.cancel();
 * ```
 */
export class PullQueue<T> {
  readonly #source: Observable<T>;
  readonly #bufferSize: number;
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
  }

  /** The next value, `done` at the end, or a rejection with the source's error. */
  next(): Promise<IteratorResult<T, undefined>> {
    if (this.#finished) return Promise.resolve({ done: true, value: undefined });
    const value = this.#take();
    if (value !== undefined) return Promise.resolve(value);
    if (this.#ending !== undefined) return this.#end();
    const pending = new Promise<IteratorResult<T, undefined>>((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
    });
    this.#update();
    if (this.#subscription === undefined) this.#subscribe();
    return pending;
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
    const waiter = this.#waiters.shift();
    if (waiter) waiter.resolve({ done: false, value });
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

  #take(): IteratorResult<T, undefined> | undefined {
    if (this.#head === this.#values.length) return undefined;
    const value = this.#values[this.#head] as T;
    this.#values[this.#head] = undefined as T;
    this.#head += 1;
    if (this.#head === this.#values.length) {
      this.#values = [];
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#values.length) {
      this.#values = this.#values.slice(this.#head);
      this.#head = 0;
    }
    this.#update();
    return { done: false, value };
  }

  get #queued(): number {
    return this.#values.length - this.#head;
  }

  #end(): Promise<IteratorResult<T, undefined>> {
    this.#finished = true;
    const ending = this.#ending;
    return ending?.error ? Promise.reject(ending.reason) : Promise.resolve({ done: true, value: undefined });
  }

  #update(): void {
    if (this.#ending !== undefined || this.#finished) return;
    if (this.#waiters.length === 0 && this.#queued >= this.#bufferSize) this.#valve.pause();
    else this.#valve.resume();
  }
}
