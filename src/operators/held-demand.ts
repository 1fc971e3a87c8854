import { type Demand, Valve } from '../core/demand.js';
import { halfWater, isFull } from '../core/queue/demand-queue.js';

/**
 * The demand a buffering operator gives its source (docs/backpressure.md, "Operators that hold
 * values"): paused while the operator holds `limit` values or more, until it is down to
 * `halfWater(limit)` (the adapters' hysteresis, `isFull`), **or** while the demand `below` it is paused.
 * The operator counts what it holds with {@link HeldDemand.add} and {@link HeldDemand.take}; a
 * value taken while paused is progress (`stallTimeout()` above sees the operator still moving), as
 * is progress below. Internal to `src/operators`.
 *
 * @example
 * ```ts
 * const held = new HeldDemand(17, demandOf(subscriber));
 * held.add(); // a value arrived from the source
 * held.take(); // …and its inner observable completed
 * held.stop(); // on teardown
 * ```
 */
export class HeldDemand implements Demand {
  readonly #valve = new Valve();
  readonly #limit: number;
  readonly #low: number;
  readonly #below: Demand | undefined;
  readonly #stops: Array<() => void> = [];
  #held = 0;
  #full = false;

  constructor(limit: number, below: Demand | undefined) {
    this.#limit = limit;
    this.#low = halfWater(limit);
    this.#below = below;
    if (below === undefined) return;
    this.#stops.push(below.onChange(() => this.#update()));
    const progress = below.onProgress?.(() => this.#valve.progress());
    if (progress !== undefined) this.#stops.push(progress);
    this.#update();
  }

  get paused(): boolean {
    return this.#valve.paused;
  }

  /** How many values the operator holds. */
  get held(): number {
    return this.#held;
  }

  onChange(listener: (paused: boolean) => void): () => void {
    return this.#valve.onChange(listener);
  }

  onProgress(listener: () => void): () => void {
    return this.#valve.onProgress(listener);
  }

  /** The operator took `count` values from its source. */
  add(count = 1): void {
    this.#held += count;
    this.#update();
  }

  /** The operator is done with `count` values (handed on, or their inner work ended). */
  take(count = 1): void {
    this.#held -= count;
    if (this.#valve.paused) this.#valve.progress();
    this.#update();
  }

  /** Stops following the demand below (the operator's teardown). */
  stop(): void {
    for (const stop of this.#stops.splice(0)) stop();
  }

  #update(): void {
    this.#full = isFull(this.#held, this.#full, this.#limit, this.#low);
    if (this.#full || this.#below?.paused === true) this.#valve.pause();
    else this.#valve.resume();
  }
}
