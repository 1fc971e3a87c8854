import { Valve } from '../demand.js';
import type { QueueOutlet } from './queue-outlet.js';
import { RingQueue } from './ring-queue.js';

/** How a {@link DemandQueue}'s producer ended: completed, or failed with `reason`. */
export type QueueEnding = { readonly error: false } | { readonly error: true; readonly reason: unknown };

/**
 * Where a {@link DemandQueue} keeps its values: a {@link RingQueue} by default; `bounded()` gives
 * one that applies its drop strategy. `push` returns `false` when the value cannot be taken
 * (`bounded({ strategy: 'error' })` overflowing).
 */
export interface QueueStore<T> {
  readonly size: number;
  push(value: T): boolean;
  shift(): T | undefined;
  clear(): void;
}

/**
 * What every {@link DemandQueue} has: its water marks and where its values and its ending go. The
 * water marks and the store are read once, when the queue is made. `deliver` and `finish` are
 * called as methods of this object, each time: a class whose methods they are gives their call
 * sites one function for all its instances, and V8's optimized code then survives a new stream
 * (docs/performance.md, "One call target per call site"). An object literal of arrow functions
 * works as well.
 */
export interface DemandQueueOptions<T> {
  /** The producer is paused once this many values wait (counting what the outlets hold). */
  readonly highWater: number;
  /**
   * …and resumed once at most this many wait ({@link mayResume}). Default `highWater - 1` (no
   * hysteresis: resumed as soon as a slot frees); a consumer's buffer gives {@link halfWater}.
   */
  readonly lowWater?: number;
  /** Hands a value downstream (called in order, never re-entered for the same queue). */
  readonly deliver: (value: T) => void;
  /** Hands the ending downstream, once, after the last value went out. */
  readonly finish: (ending: QueueEnding) => void;
  /** Where the values wait. Default a {@link RingQueue}. */
  readonly store?: QueueStore<T>;
}

/**
 * The one demand-gated queue under sluice's sources, operators, adapters and kernel streams: what
 * is common to all of them. What a user adds is an outlet ({@link QueueOutlet}): credit asked
 * for (`Credit`), the consumer's demand (`DemandGate`), values held downstream (`InFlight`); a
 * value goes out only while the outlet is open. The rules, which
 * `test/core/queue/demand-queue.test.ts` checks as properties:
 *
 * - **Order and no loss**: values go out in the order they were pushed, each once. A value that
 *   can go out at once is delivered without being queued (with the default store; a custom store
 *   sees every value).
 * - **The ending never overtakes**: {@link DemandQueue.end} is handed to `finish` only once every
 *   value before it went out — needing no outlet to be open.
 * - **The producer's valve** ({@link DemandQueue.producerValve}, the demand the queue gives its
 *   producer) is paused once `highWater` values wait (plus what the outlets hold) — unless the
 *   next value would go straight out — or when an outlet holds the producer, and resumed once at
 *   most `lowWater` wait, or when a value is wanted and none waits. Every value taken while it is
 *   paused is reported as progress (`Valve.progress`), so a stall detector knows the consumer
 *   still moves.
 *
 * @example
 * ```ts
 * const queue = new DemandQueue<string>(
 *   {
 *     highWater: 16, lowWater: 8,
 *     deliver: (line) => subscriber.next(line),
 *     finish: (ending) => (ending.error ? subscriber.error(ending.reason) : subscriber.complete()),
 *   },
 *   new DemandGate(demandOf(subscriber) ?? new Valve()),
 * );
 * subscribeWithDemand(source, queue.producerValve, {
 *   next: (line) => queue.push(line),
 *   complete: () => queue.end({ error: false }),
 * });
 * ```
 */
export class DemandQueue<T> {
  /** The valve this queue gives its producer: paused and resumed by the water marks. */
  readonly producerValve = new Valve();
  readonly #store: QueueStore<T>;
  /** A plain FIFO (not a custom store that rewrites values): a value may skip it. */
  readonly #direct: boolean;
  readonly #highWater: number;
  readonly #lowWater: number;
  /** The options: `deliver` and `finish` are called as their methods. */
  readonly #ends: DemandQueueOptions<T>;
  readonly #outlet: QueueOutlet | undefined;
  #ending: QueueEnding | undefined;
  // Flags are tested with `=== true` (docs/performance.md, "Flags tested against `true`").
  #done = false;
  #draining = false;
  #stopOutlet: (() => void) | undefined;

  constructor(options: DemandQueueOptions<T>, outlet?: QueueOutlet) {
    this.#store = options.store ?? new RingQueue<T>();
    this.#direct = options.store === undefined;
    this.#highWater = options.highWater;
    this.#lowWater = options.lowWater ?? options.highWater - 1;
    this.#ends = options;
    this.#outlet = outlet;
    // Written a second time, as the end of the queue writes them: V8 takes a field written once for
    // a constant and optimizes on it, and the first queue to end would throw that code away for
    // every queue (docs/performance.md, "Code that survives the end of a stream").
    this.#ending = undefined;
    this.#done = false;
    // An outlet that opens lets values out; one that closes needs only the valve's check, which
    // drain() makes when it ends (or the drain under way, when it ends).
    this.#stopOutlet = this.#outlet?.watch(this);
    this.#update();
  }

  /** How many values wait. */
  get size(): number {
    return this.#store.size;
  }

  /** Whether the ending was handed out, or the queue closed. */
  get done(): boolean {
    return this.#done;
  }

  /** Whether {@link DemandQueue.end} was called (the ending may still wait behind values). */
  get ended(): boolean {
    return this.#ending !== undefined || this.#done;
  }

  /**
   * Takes a value from the producer. Returns `false` only when the store refuses it (an
   * overflowing `bounded({ strategy: 'error' })`); values after the ending are ignored.
   */
  push(value: T): boolean {
    if (this.#ending !== undefined || this.#done === true) return true;
    const store = this.#store;
    const outlet = this.#outlet;
    if (
      this.#direct === true &&
      store.size === 0 &&
      this.#draining !== true &&
      (outlet === undefined || outlet.open)
    ) {
      outlet?.sent();
      // As in drain(): what the consumer pushes (or ends) while it is handed this value waits behind it.
      this.#draining = true;
      try {
        this.#ends.deliver(value);
      } finally {
        this.#draining = false;
      }
      if (store.size > 0 || this.#ending !== undefined) this.drain();
      // With no outlet and the valve flowing, nothing can have changed: the common case of a plain
      // subscribe(), skipped per value.
      else if (outlet !== undefined || this.producerValve.paused === true) this.#update();
      return true;
    }
    if (!store.push(value)) return false;
    if (this.#draining === true) this.#update();
    // At rest, a paused valve has nothing to resume it for: every drop of the backlog and every
    // change of an outlet checked it already, and a value added only raises the backlog.
    else if (this.#direct === true) {
      if (this.producerValve.paused !== true) this.#update();
    } else this.drain();
    return true;
  }

  /** The producer's ending: handed to `finish` after every queued value went out. */
  end(ending: QueueEnding): void {
    if (this.#ending !== undefined || this.#done === true) return;
    this.#ending = ending;
    this.drain();
  }

  /**
   * Takes the oldest waiting value synchronously, past the outlets (a consumer that polls), or
   * `undefined` when none waits. Hands out the ending when it is next.
   */
  take(): T | undefined {
    const store = this.#store;
    if (this.#done === true || store.size === 0) return undefined;
    const value = store.shift() as T;
    const valve = this.producerValve;
    const paused = valve.paused === true;
    if (paused) valve.progress();
    const size = store.size;
    if (size === 0 && this.#ending !== undefined) this.#end();
    // A flowing valve stays flowing when a value leaves (an outlet that changes wakes drain()), and
    // a paused one stays paused while more than the low-water mark waits: #update is for the rest.
    else if (paused && (mayResume(size, this.#lowWater) || size === 0)) this.#update();
    return value;
  }

  /** Delivers what the outlets allow, then the ending if nothing is left before it. */
  drain(): void {
    if (this.#draining === true || this.#done === true) return;
    const store = this.#store;
    const outlet = this.#outlet;
    // Skipped when nothing can go out (the common wake-up: a slot freed while no credit is left):
    // then only the valve is checked.
    if (store.size > 0 && (outlet === undefined || outlet.open)) {
      this.#draining = true;
      try {
        while (store.size > 0 && (outlet === undefined || outlet.open)) {
          const value = store.shift() as T;
          outlet?.sent();
          if (this.producerValve.paused === true) this.producerValve.progress();
          this.#ends.deliver(value);
          // `deliver` may have closed the queue; TypeScript still holds the flag false from above.
          if (this.#done !== false) return;
        }
      } finally {
        this.#draining = false;
      }
    }
    if (store.size === 0 && this.#ending !== undefined) this.#end();
    else this.#update();
  }

  /** Stops for good (a cancel): drops the values and the ending; nothing more goes out. */
  close(): void {
    if (this.#done === true) return;
    this.#done = true;
    this.#store.clear();
    this.#stopOutlet?.();
    this.#stopOutlet = undefined;
  }

  #end(): void {
    const ending = this.#ending as QueueEnding;
    this.close();
    this.#ends.finish(ending);
  }

  #update(): void {
    if (this.#done === true) return;
    const outlet = this.#outlet;
    const backlog = this.#store.size + (outlet === undefined ? 0 : outlet.held);
    if (this.producerValve.paused === true) {
      const wanted = backlog === 0 && (outlet === undefined || outlet.open);
      if (wanted || (mayResume(backlog, this.#lowWater) && outlet?.holdsProducer !== true))
        this.producerValve.resume();
    } else if (mustPause(backlog, this.#highWater) || outlet?.holdsProducer === true) {
      if (backlog !== 0 || (outlet !== undefined && !outlet.open)) this.producerValve.pause();
    }
  }
}

/**
 * The one hysteresis of sluice's buffers, with {@link mayResume}: a producer filling a buffer
 * pauses once `level` values wait from `highWater` on…
 */
export function mustPause(level: number, highWater: number): boolean {
  return level >= highWater;
}

/** …and, once paused, resumes when the buffer is down to `lowWater` (see {@link mustPause}). */
export function mayResume(level: number, lowWater: number): boolean {
  return level <= lowWater;
}

/**
 * The low-water mark of a buffer that drains half before its producer may refill it — the
 * consumers' buffers (`toAsyncIterable`, `onChunk`, a hostcall stream) and the operators that hold
 * values (docs/backpressure.md, "Operators that hold values"): half of `highWater`, rounded down;
 * −1 with no buffer (`highWater` 0), so the producer resumes only when a value is wanted.
 *
 * @example
 * ```ts
 * new DemandQueue({ highWater: 16, lowWater: halfWater(16), deliver, finish }, credit);
 * ```
 */
export function halfWater(highWater: number): number {
  return highWater === 0 ? -1 : Math.floor(highWater / 2);
}
