/**
 * How a consumer tells a producer to pause and resume: a consumer that pulls owns a {@link Valve}
 * and closes it while its buffer is full; a producer that can pause stops reading while it is
 * closed. It travels up the subscriber chain (`subscribeWithDemand`, `demandOf`;
 * docs/backpressure.md).
 */
export interface Demand {
  /** `true` while the consumer wants the producer to stop reading. */
  readonly paused: boolean;
  /** Calls `listener` on every change of `paused`; returns a function that stops listening. */
  onChange(listener: (paused: boolean) => void): () => void;
  /**
   * Calls `listener` each time the consumer takes a value while it keeps the producer paused (a
   * stall detector's progress); returns a function that stops listening.
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
  // Copy-on-write: a notification walks the array it started with, so a listener may remove itself.
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
    // A listener that changes the state back tells everyone the newer state; this one stops there.
    for (let index = 0; index < listeners.length && this.#paused === paused; index += 1) {
      listeners[index]?.(paused);
    }
  }
}

/** Whether `value` can be used as a {@link Demand} (the `demand` options of `exec` and `http`). */
export function isDemand(value: unknown): value is Demand {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Demand).paused === 'boolean' &&
    typeof (value as Demand).onChange === 'function'
  );
}
