import type { Demand } from '../demand.js';

/**
 * What stands between a {@link DemandQueue} and its consumer, beyond the queue's own order and
 * water marks: credit asked for ({@link Credit}), a downstream demand ({@link DemandGate}),
 * values out but not yet taken ({@link InFlight}). A queue is given the outlets its user needs and
 * lets a value out only while every one of them is open.
 */
export interface QueueOutlet {
  /** Whether one more value may go out now. */
  readonly open: boolean;
  /** Values already out that still count against the queue's high-water mark. */
  readonly held: number;
  /** Whether the producer must pause now even with nothing waiting (a child's pipe, see {@link DemandGate}). */
  readonly holdsProducer: boolean;
  /** One value went out through this outlet. */
  sent(): void;
  /**
   * Calls `queue.drain()` after every change of the above; returns a function that stops. The
   * outlet holds the queue, not a closure made per queue: its call site then sees one function for
   * every queue, and V8's optimized code survives a new stream (docs/performance.md, "One call
   * target per call site").
   */
  watch(queue: OutletListener): () => void;
}

/** What an outlet wakes: the queue it belongs to. */
export interface OutletListener {
  drain(): void;
}

/**
 * A {@link QueueOutlet} that lets out as many values as were asked for: each value spends one
 * unit, {@link Credit.request} adds more — a pending `next()` is one, an extension's `pull(n)` is
 * `n`.
 *
 * @example
 * ```ts
 * const credit = new Credit();
 * const queue = new DemandQueue<string>({ highWater: 16, deliver, finish }, credit);
 * credit.request(2); // up to two values go out now, or as soon as they arrive
 * ```
 */
export class Credit implements QueueOutlet {
  #count: number;
  #queue: OutletListener | undefined;
  readonly holdsProducer = false;

  /** Starts with `initial` units (default 0: nothing goes out before it is asked for). */
  constructor(initial = 0) {
    this.#count = initial;
  }

  /** Units left. */
  get count(): number {
    return this.#count;
  }

  /** None: a value that went out is its consumer's ({@link InFlight} holds them until released). */
  get held(): number {
    return 0;
  }

  get open(): boolean {
    return this.#count > 0;
  }

  /** Allows `count` more values out. */
  request(count: number): void {
    this.#count += count;
    this.wake();
  }

  sent(): void {
    this.#count -= 1;
  }

  watch(queue: OutletListener): () => void {
    this.#queue = queue;
    return () => {
      this.#queue = undefined;
    };
  }

  /** Tells the queue that watches this outlet (if any) that it changed. */
  protected wake(): void {
    this.#queue?.drain();
  }
}

/**
 * A {@link Credit} that counts every value that went out as still held downstream until
 * {@link InFlight.release}d: the queue's producer is paused by what waits *plus* what is in
 * flight. Its credit is unlimited unless it is given some: then a value goes out only while credit
 * is left, as with `Credit`. The kernel's host channel uses both, in one outlet — a chunk moves to
 * the scheduler against the extension's pulls and occupies its slot until the extension got it
 * (docs/protocol.md). One outlet, not a `Credit` beside an `InFlight`: each chunk then asks one
 * outlet whether it may go, not two through a third (docs/performance.md, "Fewer steps per chunk").
 *
 * @example
 * ```ts
 * const outlet = new InFlight(0); // no credit yet: nothing goes out before a pull
 * const channel = new DemandQueue<JsonValue>({ highWater: 16, deliver, finish }, outlet);
 * outlet.request(8); // the extension pulled 8
 * scheduler.enqueue(…, () => outlet.release(1)); // delivered: the slot is free again
 * ```
 */
export class InFlight extends Credit {
  #held = 0;

  /** `credit`: how many values may go out before `request` adds more (default: no limit). */
  constructor(credit = Number.POSITIVE_INFINITY) {
    super(credit);
  }

  /** Values out and not yet released. */
  override get held(): number {
    return this.#held;
  }

  /** Counts `count` more values as held downstream (values handed on some other way). */
  hold(count = 1): void {
    this.#held += count;
    this.wake();
  }

  /**
   * `count` values reached their consumer: they no longer count. `wake: false` tells the queue
   * nothing, for a caller that knows the change cannot matter to it (its valve stays paused).
   */
  release(count = 1, wake = true): void {
    this.#held = Math.max(0, this.#held - count);
    if (wake) this.wake();
  }

  override sent(): void {
    super.sent();
    this.#held += 1;
  }
}

/**
 * A {@link QueueOutlet} open while a downstream {@link Demand} flows: a queue's values go out only
 * when its consumer wants them.
 *
 * With `holdProducer`, the queue's producer is paused as soon as the demand pauses, even with
 * nothing waiting — what a child's pipe needs: the child then blocks on its full pipe rather than
 * one more read landing in the queue. Without it, the producer is paused only once the queue
 * fills to its high-water mark.
 *
 * @example
 * ```ts
 * const lines = new DemandQueue<ExecEvent>({ highWater: 1, lowWater: 0, deliver, finish }, new DemandGate(demand, true));
 * ```
 */
export class DemandGate implements QueueOutlet {
  readonly #demand: Demand;
  readonly #holdProducer: boolean;
  readonly held = 0;

  constructor(demand: Demand, holdProducer = false) {
    this.#demand = demand;
    this.#holdProducer = holdProducer;
  }

  get open(): boolean {
    return !this.#demand.paused;
  }

  get holdsProducer(): boolean {
    return this.#holdProducer && this.#demand.paused;
  }

  sent(): void {}

  watch(queue: OutletListener): () => void {
    return this.#demand.onChange(() => queue.drain());
  }
}
