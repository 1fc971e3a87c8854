/** One pending `next()` of an async iterator. */
interface Waiter<T> {
  readonly resolve: (result: IteratorResult<T, undefined>) => void;
  readonly reject: (error: unknown) => void;
}

const DONE = { value: undefined, done: true } as const;

/**
 * The pending `next()` calls of an async iterator, served in call order: several `next()` calls
 * made without awaiting each get their own result. (Internal to the bridge.)
 *
 * @example
 * ```ts
 * const waiters = new NextWaiters<string>();
 * const first = waiters.wait();
 * waiters.resolve({ value: 'a', done: false }); // first resolves with 'a'
 * ```
 */
export class NextWaiters<T> {
  readonly #queue: Waiter<T>[] = [];

  /** How many `next()` calls are waiting. */
  get size(): number {
    return this.#queue.length;
  }

  /** A promise for the next result handed out, queued after the waiting ones. */
  wait(): Promise<IteratorResult<T, undefined>> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ resolve, reject });
    });
  }

  /** Resolves the oldest waiter with `result`; returns whether there was one. */
  resolve(result: IteratorResult<T, undefined>): boolean {
    const waiter = this.#queue.shift();
    waiter?.resolve(result);
    return waiter !== undefined;
  }

  /** Rejects the oldest waiter with `error`; returns whether there was one. */
  reject(error: unknown): boolean {
    const waiter = this.#queue.shift();
    waiter?.reject(error);
    return waiter !== undefined;
  }

  /** Resolves every waiter with `done`. */
  end(): void {
    for (const waiter of this.#queue.splice(0)) waiter.resolve(DONE);
  }
}
