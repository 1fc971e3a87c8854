import { Valve } from '../demand.js';
import type { QueueOutlet } from './queue-outlet.js';
import { RingQueue } from './ring-queue.js';

/** How a {@link DemandQueue}'s producer ended: completed, or failed with `reason`. */
export type QueueEnding = { readonly error: false } | { readonly error: true; readonly reason: unknown };

/** Where a {@link DemandQueue} keeps its values; `push` is `false` when one cannot be taken (an overflow). */
export interface QueueStore<T> {
  readonly size: number;
  push(value: T): boolean;
  shift(): T | undefined;
  clear(): void;
}

/**
 * A {@link DemandQueue}'s water marks and where its values and ending go. `deliver` and `finish`
 * are called as methods of this object (docs/performance.md, "One call target per call site").
 */
export interface DemandQueueOptions<T> {
  /** The producer is paused once this many values wait (counting what the outlets hold). */
  readonly highWater: number;
  /**
   * …and resumed once at most this many wait ({@link mayResume}). Default `highWater - 1` (no
   * hysteresis: resumed as soon as a slot frees); a consumer's buffer gives {@link halfWater}.
   */
  readonly lowWater?: number;
  /** Hands a value downstream (in order, never re-entered). */
  readonly deliver: (value: T) => void;
  /** Hands the ending downstream, once, after the last value went out. */
  readonly finish: (ending: QueueEnding) => void;
  readonly store?: QueueStore<T>;
}

/**
 * The one demand-gated queue under sluice's sources, operators, adapters and kernel streams
 * (docs/backpressure.md, "One queue"); a user adds an outlet ({@link QueueOutlet}) that a value
 * must find open. The rules, checked as properties by `test/core/queue/demand-queue.test.ts`:
 *
 * - **Order and no loss**: values go out in the order pushed, each once; one that can go out at
 *   once skips the default store.
 * - **The ending never overtakes**: it reaches `finish` once every value before it went out,
 *   needing no outlet to be open.
 * - **The producer's valve** pauses once `highWater` values wait (plus what the outlets hold) —
 *   unless the next would go straight out — or while an outlet holds the producer; it resumes once
 *   at most `lowWater` wait, or when a value is wanted and none waits. A value taken while it is
 *   paused is progress (`Valve.progress`), so a stall detector knows the consumer still moves.
 */
export class DemandQueue<T> {
  /** The valve this queue gives its producer: paused and resumed by the water marks. */
  readonly producerValve = new Valve();
  readonly #store: QueueStore<T>;
  /** The default store: a value may skip it. */
  readonly #direct: boolean;
  readonly #highWater: number;
  readonly #lowWater: number;
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
    // Written twice, as the end writes them (docs/performance.md, "Code that survives the end of a stream").
    this.#ending = undefined;
    this.#done = false;
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

  /** Takes a value from the producer: `false` when the store refuses it; ignored after the ending. */
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
      // With no outlet and the valve flowing nothing changed (a plain subscribe()).
      else if (outlet !== undefined || this.producerValve.paused === true) this.#update();
      return true;
    }
    if (!store.push(value)) return false;
    if (this.#draining === true) this.#update();
    // At rest a value added only raises the backlog: a paused valve stays paused.
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

  /** Takes the oldest waiting value past the outlets (a consumer that polls); hands out the ending when it is next. */
  take(): T | undefined {
    const store = this.#store;
    if (this.#done === true || store.size === 0) return undefined;
    const value = store.shift() as T;
    const valve = this.producerValve;
    const paused = valve.paused === true;
    if (paused) valve.progress();
    const size = store.size;
    if (size === 0 && this.#ending !== undefined) this.#end();
    // A value leaving keeps a flowing valve flowing, and a paused one paused above the low-water mark.
    else if (paused && (mayResume(size, this.#lowWater) || size === 0)) this.#update();
    return value;
  }

  /** Delivers what the outlets allow, then the ending if nothing is left before it. */
  drain(): void {
    if (this.#draining === true || this.#done === true) return;
    const store = this.#store;
    const outlet = this.#outlet;
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
 * The low-water mark of a buffer that drains half before its producer refills it (the consumers'
 * buffers, the operators that hold values): −1 with no buffer, so the producer resumes only when a
 * value is wanted (docs/backpressure.md, "The consumers").
 */
export function halfWater(highWater: number): number {
  return highWater === 0 ? -1 : Math.floor(highWater / 2);
}
