/**
 * How a consumer tells a producer to pause and resume.
 *
 * A `Demand` is a two-state signal: `paused` or flowing. A consumer that pulls (an async
 * iterator, an async callback, a `ReadableStream` reader) owns a {@link Valve} and closes it
 * while its buffer is full; a producer that can pause (a child's stdout pipe, an HTTP body
 * reader, a hostcall channel) listens and stops reading while it is closed.
 *
 * It travels upstream on the subscriber chain: a consumer subscribes with
 * `subscribeWithDemand`, a producer finds it with `demandOf` (both in
 * src/core/subscriber-chain.ts; docs/backpressure.md).
 */
export interface Demand {
  /** `true` while the consumer wants the producer to stop reading. */
  readonly paused: boolean;
  /** Calls `listener` on every change of `paused`; returns a function that stops listening. */
  onChange(listener: (paused: boolean) => void): () => void;
  /**
   * Optional: calls `listener` each time the consumer takes a value while it keeps the producer
   * paused (a consumer with hysteresis stays paused while it drains part of its buffer). A stall
   * detector treats this as progress. Returns a function that stops listening.
   */
  onProgress?(listener: () => void): () => void;
}

/**
 * The writable side of a {@link Demand}: `pause()` and `resume()` notify listeners only on a
 * change of state, synchronously and in the order they subscribed.
 *
 * @example
 * ```ts
 * import { Valve } from 'sluice';
 * const valve = new Valve();
 * valve.pause();
 * valve.paused; // true
 * ```
 */
export class Valve implements Demand {
  #paused = false;
  // Copy-on-write: onChange/stop build a new array (rare), #set iterates the current one without
  // copying (on every change of state — per few values under load). A notification walks the
  // array it started with, so a listener may remove itself (or others) while being notified.
  #listeners: ReadonlyArray<(paused: boolean) => void> = [];
  #progressListeners: ReadonlyArray<() => void> = [];

  get paused(): boolean {
    return this.#paused;
  }

  /** Closes the valve: producers listening should stop reading. */
  pause(): void {
    if (!this.#paused) this.#set(true);
  }

  /** Opens the valve: producers listening may read again. */
  resume(): void {
    if (this.#paused) this.#set(false);
  }

  /** Tells progress listeners that the consumer took a value (see {@link Demand.onProgress}). */
  progress(): void {
    const listeners = this.#progressListeners;
    for (let index = 0; index < listeners.length; index += 1) listeners[index]?.();
  }

  onProgress(listener: () => void): () => void {
    if (!this.#progressListeners.includes(listener))
      this.#progressListeners = [...this.#progressListeners, listener];
    return () => {
      this.#progressListeners = this.#progressListeners.filter((other) => other !== listener);
    };
  }

  onChange(listener: (paused: boolean) => void): () => void {
    if (!this.#listeners.includes(listener)) this.#listeners = [...this.#listeners, listener];
    return () => {
      this.#listeners = this.#listeners.filter((other) => other !== listener);
    };
  }

  #set(paused: boolean): void {
    this.#paused = paused;
    const listeners = this.#listeners;
    // A listener may change the state back while it is told (a consumer that refills its buffer
    // from a resume and pauses again): the change it makes tells every listener the newer state,
    // and this one stops there, so no listener is told a stale state last.
    for (let index = 0; index < listeners.length && this.#paused === paused; index += 1) {
      listeners[index]?.(paused);
    }
  }
}

/**
 * Whether `value` can be used as a {@link Demand}: a boolean `paused` and an `onChange()`
 * method. The `demand` options of `exec` and `http` are checked with it. Internal: not exported
 * from the package.
 *
 * @example
 * ```ts
 * const demand = readOption(options, 'demand', isDemand, 'a Demand (`paused` and `onChange()`)', undefined);
 * ```
 */
export function isDemand(value: unknown): value is Demand {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Demand).paused === 'boolean' &&
    typeof (value as Demand).onChange === 'function'
  );
}
