import type { Demand } from '../demand.js';

/**
 * What stands between a `DemandQueue` and its consumer: credit asked for ({@link Credit}), a
 * downstream demand ({@link DemandGate}), values out but not yet taken ({@link InFlight}).
 */
export interface QueueOutlet {
  /** Whether one more value may go out now. */
  readonly open: boolean;
  /** Values already out that still count against the queue's high-water mark. */
  readonly held: number;
  /** Whether the producer must pause even with nothing waiting (a child's pipe). */
  readonly holdsProducer: boolean;
  /** One value went out through this outlet. */
  sent(): void;
  /**
   * Calls `queue.drain()` after every change of the above; returns a function that stops. It holds
   * the queue, not a closure (docs/performance.md, "One call target per call site").
   */
  watch(queue: OutletListener): () => void;
}

/** What an outlet wakes: the queue it belongs to. */
export interface OutletListener {
  drain(): void;
}

/** Lets out as many values as were asked for (a pending `next()` is one, an extension's `pull(n)` is `n`). */
export class Credit implements QueueOutlet {
  #count: number;
  #queue: OutletListener | undefined;
  readonly holdsProducer = false;

  constructor(initial = 0) {
    this.#count = initial;
  }

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

  protected wake(): void {
    this.#queue?.drain();
  }
}

/**
 * A {@link Credit} that counts every value out as held downstream until released: the producer is
 * paused by what waits *plus* what is in flight (the kernel's host channel: a chunk holds its slot
 * until the extension got it; docs/protocol.md). Unlimited credit unless given some.
 */
export class InFlight extends Credit {
  #held = 0;

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
 * Open while a downstream {@link Demand} flows. With `holdProducer` the producer pauses as soon as
 * the demand does, even with nothing waiting: a child then blocks on its full pipe.
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
