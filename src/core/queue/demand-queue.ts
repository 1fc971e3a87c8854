import type { Demand } from '../demand.js';
import { Valve } from '../demand.js';
import { RingQueue } from './ring-queue.js';

/**
 * How a {@link DemandQueue}'s producer ended: completed, or failed with `reason`.
 *
 * @example
 * ```ts
 * queue.end({ error: true, reason: new Error('boom') }); // delivered after every queued value
 * ```
 */
export type QueueEnding = { readonly error: false } | { readonly error: true; readonly reason: unknown };

/**
 * Where a {@link DemandQueue} keeps its values: a {@link RingQueue} by default; `bounded()` gives
 * one that applies its drop strategy. `push` returns `false` when the value cannot be taken
 * (`bounded({ strategy: 'error' })` overflowing).
 *
 * @example
 * ```ts
 * const store: QueueStore<number> = new RingQueue<number>();
 * ```
 */
export interface QueueStore<T> {
  readonly size: number;
  push(value: T): boolean;
  shift(): T | undefined;
  clear(): void;
}

/**
 * Options of a {@link DemandQueue}.
 *
 * @example
 * ```ts
 * const options: DemandQueueOptions<string> = {
 *   highWater: 16, lowWater: 8, credit: 0,
 *   deliver: (value) => waiter.resolve(value), finish: (ending) => end(ending),
 * };
 * ```
 */
export interface DemandQueueOptions<T> {
  /** The producer is paused once this many values wait (counting {@link DemandQueue.inFlight}). */
  readonly highWater: number;
  /** …and resumed once at most this many wait. Default `highWater - 1` (no hysteresis). */
  readonly lowWater?: number;
  /** A downstream demand: values go out only while it flows. */
  readonly gate?: Demand | undefined;
  /** Pause the producer as soon as `gate` pauses, even with nothing queued (a child's pipe). */
  readonly followGate?: boolean;
  /** Values that may go out before more is {@link DemandQueue.request}ed. Default `Infinity`. */
  readonly credit?: number;
  /** Hands a value downstream (called in order, never re-entered for the same queue). */
  readonly deliver: (value: T) => void;
  /** Hands the ending downstream, once, after the last value went out. */
  readonly finish: (ending: QueueEnding) => void;
  /** Where the values wait. Default a {@link RingQueue}. */
  readonly store?: QueueStore<T>;
  /**
   * Count every delivered value as held downstream (in flight) until {@link DemandQueue.release}d
   * — the kernel's scheduler queue, whose chunks occupy the channel until the extension gets them.
   */
  readonly holdDelivered?: boolean;
  /** Called once when this many values wait: the producer ignores the pause (a diagnostic, or a cut-off). */
  readonly overfill?: { readonly at: number; readonly call: (waiting: number) => void };
}

/**
 * The one demand-gated queue under sluice's sources, operators, adapters and kernel streams.
 * The rules, which `test/core/queue/demand-queue.test.ts` checks as properties:
 *
 * - **Order and no loss**: values go out in the order they were pushed, each once.
 * - **Gate and credit**: a value goes out only while the `gate` demand flows and credit is left
 *   (each value spends one; {@link DemandQueue.request} adds more — a pending `next()` is one).
 *   A value that can go out at once is delivered without being queued (with the default store;
 *   a custom store sees every value).
 * - **The ending never overtakes**: {@link DemandQueue.end} is handed to `finish` only once every
 *   value before it went out — needing neither gate nor credit itself.
 * - **The producer's valve** ({@link DemandQueue.upstream}, the demand the queue gives its
 *   producer) is paused once `highWater` values wait (plus {@link DemandQueue.inFlight}) — unless
 *   the next value would go straight out — and resumed once at most `lowWater` wait, or when a
 *   value is wanted and none waits. Every value taken while it is paused is reported as progress
 *   (`Valve.progress`), so a stall detector knows the consumer still moves.
 * - **Overfill**: a producer that ignores the pause makes the queue grow; at `overfill.at` values
 *   the queue calls `overfill.call` once (and otherwise keeps every value).
 *
 * @example
 * ```ts
 * const queue = new DemandQueue<string>({
 *   highWater: 16, lowWater: 8, gate: downstreamDemand,
 *   deliver: (line) => subscriber.next(line),
 *   finish: (ending) => (ending.error ? subscriber.error(ending.reason) : subscriber.complete()),
 * });
 * source.subscribe(subscriberWithDemand(queue.upstream, {
 *   next: (line) => queue.push(line),
 *   complete: () => queue.end({ error: false }),
 * }));
 * ```
 */
export class DemandQueue<T> {
  /** The demand this queue gives its producer. */
  readonly upstream = new Valve();
  readonly #store: QueueStore<T>;
  /** A plain FIFO (not a custom store that rewrites values): a value may skip it. */
  readonly #direct: boolean;
  readonly #highWater: number;
  readonly #lowWater: number;
  readonly #gate: Demand | undefined;
  readonly #followGate: boolean;
  readonly #deliver: (value: T) => void;
  readonly #finish: (ending: QueueEnding) => void;
  #overfill: DemandQueueOptions<T>['overfill'];
  #credit: number;
  readonly #held: 0 | 1;
  #inFlight = 0;
  #ending: QueueEnding | undefined;
  #done = false;
  #draining = false;
  #stopGate: (() => void) | undefined;

  constructor(options: DemandQueueOptions<T>) {
    this.#store = options.store ?? new RingQueue<T>();
    this.#direct = options.store === undefined;
    this.#highWater = options.highWater;
    this.#lowWater = options.lowWater ?? options.highWater - 1;
    this.#gate = options.gate;
    this.#followGate = options.followGate === true && options.gate !== undefined;
    this.#credit = options.credit ?? Number.POSITIVE_INFINITY;
    this.#held = options.holdDelivered === true ? 1 : 0;
    this.#deliver = options.deliver;
    this.#finish = options.finish;
    this.#overfill = options.overfill;
    // A resume may let values out; a pause needs only the valve's check (nothing can go out), which
    // a drain under way makes when it ends.
    this.#stopGate = options.gate?.onChange((paused) => {
      if (!paused) this.drain();
      else if (!this.#draining) this.#update();
    });
    this.#update();
  }

  /** How many values wait. */
  get size(): number {
    return this.#store.size;
  }

  /** Values delivered but not yet {@link DemandQueue.release}d (they still count against `highWater`). */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Credit left (see {@link DemandQueue.request}). */
  get credit(): number {
    return this.#credit;
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
    if (this.#ending !== undefined || this.#done) return true;
    const store = this.#store;
    if (
      this.#direct &&
      store.size === 0 &&
      !this.#draining &&
      this.#credit > 0 &&
      this.#gate?.paused !== true
    ) {
      this.#credit -= 1;
      this.#inFlight += this.#held;
      // As in drain(): what the consumer pushes (or ends) while it is handed this value waits behind it.
      this.#draining = true;
      try {
        this.#deliver(value);
      } finally {
        this.#draining = false;
      }
      if (store.size > 0 || this.#ending !== undefined) this.drain();
      else this.#update();
      return true;
    }
    if (!store.push(value)) return false;
    const overfill = this.#overfill;
    if (overfill !== undefined && store.size + this.#inFlight >= overfill.at) {
      this.#overfill = undefined;
      overfill.call(store.size + this.#inFlight);
    }
    if (this.#direct || this.#draining) this.#update();
    else this.drain();
    return true;
  }

  /** The producer's ending: handed to `finish` after every queued value went out. */
  end(ending: QueueEnding): void {
    if (this.#ending !== undefined || this.#done) return;
    this.#ending = ending;
    this.drain();
  }

  /** Allows `count` more values out (a `next()` call, a `pull(n)` from an extension). */
  request(count: number): void {
    if (this.#done) return;
    this.#credit += count;
    this.drain();
  }

  /** Values bought back by the consumer: `inFlight` counts `count` fewer. */
  release(count = 1): void {
    this.#inFlight = Math.max(0, this.#inFlight - count);
    this.#update();
  }

  /** Marks `count` delivered values as still held downstream (counted until released). */
  hold(count = 1): void {
    this.#inFlight += count;
    this.#update();
  }

  /**
   * Takes the oldest waiting value synchronously, past the gate and the credit (a consumer that
   * polls), or `undefined` when none waits. Hands out the ending when it is next.
   */
  take(): T | undefined {
    if (this.#done || this.#store.size === 0) return undefined;
    const value = this.#store.shift() as T;
    if (this.upstream.paused) this.upstream.progress();
    if (this.#store.size === 0 && this.#ending !== undefined) this.#end();
    else this.#update();
    return value;
  }

  /** Delivers what the gate and the credit allow, then the ending if nothing is left before it. */
  drain(): void {
    if (this.#draining || this.#done) return;
    this.#draining = true;
    try {
      const store = this.#store;
      while (store.size > 0 && this.#credit > 0 && this.#gate?.paused !== true) {
        const value = store.shift() as T;
        this.#credit -= 1;
        this.#inFlight += this.#held;
        if (this.upstream.paused) this.upstream.progress();
        this.#deliver(value);
        if (this.#done) return;
      }
    } finally {
      this.#draining = false;
    }
    if (this.#store.size === 0 && this.#ending !== undefined) this.#end();
    else this.#update();
  }

  /** Stops for good (a cancel): drops the values and the ending; nothing more goes out. */
  close(): void {
    if (this.#done) return;
    this.#done = true;
    this.#store.clear();
    this.#stopGate?.();
    this.#stopGate = undefined;
  }

  #end(): void {
    const ending = this.#ending as QueueEnding;
    this.close();
    this.#finish(ending);
  }

  #update(): void {
    if (this.#done) return;
    const waiting = this.#store.size;
    const backlog = waiting + this.#inFlight;
    const gateShut = this.#gate?.paused === true;
    const wanted = backlog === 0 && this.#credit > 0 && !gateShut;
    const held = this.#followGate && gateShut;
    if (this.upstream.paused) {
      if (wanted || (backlog <= this.#lowWater && !held)) this.upstream.resume();
    } else if (!wanted && (backlog >= this.#highWater || held)) {
      this.upstream.pause();
    }
  }
}
