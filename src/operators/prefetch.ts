import { from, Observable, type ObservableInput } from 'rxjs';
import { type Demand, Valve } from '../core/demand.js';
import { createOperatorSubscriber } from '../core/operate.js';
import { halfWater, mayResume, mustPause } from '../core/queue/demand-queue.js';
import { readInteger } from '../core/read-integer.js';
import { demandOf, subscribeWithDemand } from '../core/subscriber-chain.js';

/**
 * The option of sluice's buffering operators (`concatMap`, `mergeMap`, `zip`, …): how many values
 * the operator may hold beyond what it works on before it pauses its source. See
 * docs/backpressure.md, "Operators that hold values".
 */
export interface PrefetchConfig {
  /**
   * Values that may wait before the source is paused. A positive integer, or `Infinity` for RxJS's
   * own unbounded buffer (never pause: see docs/backpressure.md for the one case that needs it, a
   * shared producer read twice by one operator); default `16`.
   */
  readonly prefetch?: number;
}

/** Reads {@link PrefetchConfig} (before anything is subscribed): 16 when absent. */
export function readPrefetch(config: PrefetchConfig | undefined): number {
  if (config?.prefetch === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
  return readInteger(config, 'prefetch', 16, { min: 1 });
}

/**
 * The valve on a buffering operator's source (docs/backpressure.md, "Operators that hold values"):
 * paused while the operator holds `limit` values or more, until it is down to `halfWater(limit)`,
 * **or** while the demand `below` it is paused. A value given back while paused is progress
 * (`stallTimeout()` above sees the operator still moving), as is progress below.
 */
export class SourceValve implements Demand {
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

  onChange(listener: (paused: boolean) => void): () => void {
    return this.#valve.onChange(listener);
  }

  onProgress(listener: () => void): () => void {
    return this.#valve.onProgress(listener);
  }

  /** The operator took a value from its source. */
  add(): void {
    this.#held += 1;
    this.#update();
  }

  /** The operator is done with a value (handed on, or its inner work ended). */
  release(): void {
    this.#held -= 1;
    if (this.#valve.paused) this.#valve.progress();
    this.#update();
  }

  /** Stops following the demand below (the operator's teardown). */
  stop(): void {
    for (const stop of this.#stops.splice(0)) stop();
  }

  #update(): void {
    this.#full = this.#full ? !mayResume(this.#held, this.#low) : mustPause(this.#held, this.#limit);
    if (this.#full || this.#below?.paused === true) this.#valve.pause();
    else this.#valve.resume();
  }
}

/** A source as a buffering operator sees it, and how the operator gives back a value it held. */
export interface CountedSource<T> {
  readonly source: Observable<T>;
  readonly release: () => void;
}

/**
 * `input` subscribed with a {@link SourceValve} of `limit` (and the demand below) that counts each
 * value it emits as held until `release`d; values, errors, completion and timing unchanged.
 */
export function countedSource<T>(input: ObservableInput<T>, limit: number): CountedSource<T> {
  let valve: SourceValve | undefined;
  const counted = new Observable<T>((subscriber) => {
    // A zip that failed on an earlier source subscribes no more of them (as RxJS's own).
    if (subscriber.closed) return undefined;
    const source = from(input);
    const held = new SourceValve(limit, demandOf(subscriber));
    valve = held;
    const upstream = createOperatorSubscriber<T>(subscriber, (value) => {
      held.add();
      subscriber.next(value);
    });
    subscribeWithDemand(source, held, upstream);
    return () => held.stop();
  });
  return { source: counted, release: () => valve?.release() };
}
