import { config, type Observable, type Observer, Subscriber, type Subscription } from 'rxjs';
import { AggregateDemand, type Governor } from './aggregate-demand.js';
import type { Demand } from './demand.js';

/**
 * The subscriber chain and the three tags sluice leaves on it, each read by a producer from the
 * subscriber it was given: the demand tag (when to read; {@link demandOf}), the direct sink (where
 * to push past `subscriber.next`; {@link directSinkOf}) and the stall mark (why it was
 * unsubscribed; {@link stalledBelow}).
 *
 * Everything sluice relies on in RxJS beyond its public API is here, and
 * `test/core/subscriber-chain.test.ts` fails if an RxJS release changes it (checked against the
 * peer range `^7.8.0`; docs/backpressure.md, "How a producer finds its consumer"):
 *
 * 1. every RxJS 7 operator, inner subscription and re-subscription subscribes with a `Subscriber`
 *    whose protected `destination` is the subscriber below it;
 * 2. a plain observer is wrapped in a `SafeSubscriber` whose `destination` is a `ConsumerObserver`
 *    holding it as `partialObserver` (so `source.subscribe(subject)` leads to the `Subject`);
 * 3. `Subject#observers` is the live list of a Subject's subscribers;
 * 4. `new Subscriber(destination)` (deprecated) is subclassed here, and nowhere else.
 */

const DEMAND = Symbol.for('sluice.demand');
const SINK = Symbol.for('sluice.directSink');
const STALLED = Symbol.for('sluice.stalled');

/** A subscriber as the walk sees it. */
type ChainNode = {
  [DEMAND]?: Demand | null;
  [SINK]?: DirectSink<unknown>;
  [STALLED]?: number;
  destination?: unknown;
  partialObserver?: unknown;
};

/** How far a walk goes before giving up (a chain this long is a cycle or a bug). */
const MAX_HOPS = 10_000;

/**
 * The one walk: from `start` towards the consumer until `visit` returns something other than
 * `undefined`; `undefined` when the chain ends (or an observer hides what is below it, as the
 * connection of RxJS's `share()` does).
 */
function walk<R>(start: unknown, visit: (node: ChainNode) => R | undefined): R | undefined {
  let node = start;
  for (let hops = 0; hops < MAX_HOPS && typeof node === 'object' && node !== null; hops += 1) {
    const found = visit(node as ChainNode);
    if (found !== undefined) return found;
    node = 'destination' in node ? node.destination : (node as ChainNode).partialObserver;
  }
  return undefined;
}

// The demand tag

/**
 * The demand of the consumer that `subscriber` ends up delivering to — what a producer calls,
 * first thing in its subscribe function, to know when to stop reading. It walks the chain down to
 * the consumer, so it does not matter *when* the producer is subscribed (inner observables of
 * `concatMap`, `mergeMap`, `concat`, …, re-subscriptions of `retry`). Through a `Subject` (so
 * `connectable()` and sluice's `share()`) it is the combined demand of the Subject's subscribers,
 * paused while any of them is. `undefined` where the chain says nothing (plain `subscribe()`, a
 * `null` tag): push freely.
 *
 * @example
 * ```ts
 * import { Observable } from 'rxjs';
 * import { demandOf } from 'sluice';
 * const source = new Observable<string>((subscriber) => {
 *   const demand = demandOf(subscriber);
 *   const stop = demand?.onChange((paused) => (paused ? pipe.pause() : pipe.resume()));
 *   if (demand?.paused) pipe.pause();
 *   return () => stop?.();
 * });
 * ```
 */
export function demandOf(subscriber: object): Demand | undefined {
  return walk(subscriber, demandAt) ?? undefined;
}

/** The demand a node settles: its tag (`null` for none), a Subject's combined one, or nothing (walk on). */
function demandAt(node: ChainNode): Demand | null | undefined {
  if (DEMAND in node) return node[DEMAND] ?? null;
  return isSubject(node) ? subjectDemand(node) : undefined;
}

const subjects = new WeakMap<object, AggregateDemand>();

/** The slowest-governed demand of a Subject's subscribers: one per Subject. */
function subjectDemand(subject: object): AggregateDemand {
  let demand = subjects.get(subject);
  if (demand === undefined) {
    demand = subscribersDemand(subject, 'slowest') as AggregateDemand;
    subjects.set(subject, demand);
  }
  return demand;
}

/**
 * A new demand combining the subscribers of `subject` by `governor`; `undefined` when `subject` is
 * not a `Subject`. A subscriber whose chain leads back into this very demand (the source reads
 * the Subject itself) cannot govern the producer it feeds on: it counts as one without demand.
 */
export function subscribersDemand(subject: unknown, governor: Governor): AggregateDemand | undefined {
  if (!isSubject(subject)) return undefined;
  const observers = () => (subject as { observers: readonly unknown[] | null }).observers ?? [];
  const demand: AggregateDemand = new AggregateDemand(observers, governor, (member) => {
    const found = typeof member === 'object' && member !== null ? demandOf(member) : undefined;
    return found === demand ? undefined : found;
  });
  return demand;
}

/** Whether `node` is a `Subject` (of any kind). */
function isSubject(node: unknown): boolean {
  const candidate = node as { observers?: unknown; next?: unknown; asObservable?: unknown } | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    Array.isArray(candidate.observers) &&
    typeof candidate.next === 'function' &&
    typeof candidate.asObservable === 'function'
  );
}

/** Marks `subscriber` as carrying `demand` (`null`: none, push freely); a walk from above stops at it. */
export function tagDemand<S extends object>(subscriber: S, demand: Demand | null): S {
  (subscriber as ChainNode)[DEMAND] = demand;
  return subscriber;
}

/**
 * Subscribes `observer` to `source` carrying `demand` — the one way a consumer hands its demand
 * to the producers above it, now and subscribed later. `null` means explicitly none: what is above
 * pushes freely, whatever a consumer further down asks.
 *
 * - A plain observer is wrapped in a subscriber that carries `demand`; what its callbacks throw is
 *   reported on a later tick, as RxJS does for `subscribe(observer)`.
 * - A `Subscriber` made for this one subscription carries `demand` itself: no extra hop per value.
 * - `owner`, when given, holds the subscription before `source` is subscribed: unsubscribing it
 *   from a callback stops even a synchronous source mid-way.
 *
 * @example
 * ```ts
 * import { Valve, subscribeWithDemand } from 'sluice';
 * const valve = new Valve();
 * const subscription = subscribeWithDemand(exec('make').pipe(map(render)), valve, {
 *   next: (line) => (buffer.push(line) >= 16 ? valve.pause() : undefined),
 * });
 * valve.resume(); // once the buffer is drained: make's pipe is read again
 * ```
 */
export function subscribeWithDemand<T>(
  source: Observable<T>,
  demand: Demand | null,
  observer: Partial<Observer<T>> | Subscriber<T>,
  owner?: Subscription,
): Subscription {
  const subscriber = tagDemand(
    observer instanceof Subscriber ? observer : new ObserverSubscriber(observer),
    demand,
  );
  owner?.add(subscriber);
  return source.subscribe(subscriber);
}

// The direct sink

/**
 * A consumer's queue offered to the producer it subscribes to directly (nothing in between): the
 * producer may push into it instead of calling `subscriber.next`, and follows its `demand`, so
 * values wait in one queue, not two (docs/performance.md, "One queue on the hot path"). Ending,
 * errors and teardown still go through the subscriber.
 */
export interface DirectSink<T> {
  /** The consumer's demand: the producer stops reading while it is paused. */
  readonly demand: Demand;
  /** Takes one value, in order with every other value and behind none of them. */
  push(value: T): void;
}

/**
 * Offers `sink` on `subscriber` (made for one subscription, its `next` doing what `sink.push`
 * does). Only the producer given exactly this subscriber finds it.
 */
export function offerDirectSink<S extends object, T>(subscriber: S, sink: DirectSink<T>): S {
  Object.defineProperty(subscriber, SINK, { value: sink });
  return subscriber;
}

/** The {@link DirectSink} the producer's own `subscriber` offers, never one further down the chain. */
export function directSinkOf<T>(subscriber: object): DirectSink<T> | undefined {
  return Object.hasOwn(subscriber, SINK) ? ((subscriber as ChainNode)[SINK] as DirectSink<T>) : undefined;
}

// The stall mark

/**
 * Marks `subscriber` (a stall detector's, just before it unsubscribes) as unsubscribed for a stall
 * of `ms`, so the producer above learns why ({@link stalledBelow}; docs/tracing.md).
 */
export function markStalled(subscriber: object, ms: number): void {
  (subscriber as ChainNode)[STALLED] = ms;
}

/** The stall timeout marked on `subscriber` or below it; `undefined` when not unsubscribed for a stall. */
export function stalledBelow(subscriber: object): number | undefined {
  return walk(subscriber, (node) => node[STALLED]);
}

// sluice's subscribers

/**
 * A `Subscriber` that hands everything to a plain `observer`, guarded like RxJS's
 * `SafeSubscriber`: what the callbacks throw is reported on a later tick.
 */
export class ObserverSubscriber<T> extends Subscriber<T> {
  readonly #observer: Partial<Observer<T>>;
  /** The observer's `next`, read once (a value goes through here per chunk on every hot path). */
  readonly #next: ((value: T) => void) | undefined;

  constructor(observer: Partial<Observer<T>>) {
    super();
    this.#observer = observer;
    this.#next = typeof observer.next === 'function' ? observer.next.bind(observer) : undefined;
    if (isSubscriptionLike(observer)) observer.add(this);
  }

  protected override _next(value: T): void {
    const next = this.#next;
    if (next === undefined) return;
    try {
      next(value);
    } catch (error) {
      reportLater(error);
    }
  }

  protected override _error(error: unknown): void {
    try {
      if (this.#observer.error) this.#observer.error(error);
      else reportLater(error);
    } catch (thrown) {
      reportLater(thrown);
    } finally {
      this.unsubscribe();
    }
  }

  protected override _complete(): void {
    try {
      this.#observer.complete?.();
    } catch (error) {
      reportLater(error);
    } finally {
      this.unsubscribe();
    }
  }
}

/** RxJS's own `OperatorSubscriber`, rebuilt on the public constructor (see `createOperatorSubscriber`). */
export class OperatorSubscriber<T> extends Subscriber<T> {
  readonly #onNext: ((value: T) => void) | undefined;
  readonly #onComplete: (() => void) | undefined;
  readonly #onError: ((error: unknown) => void) | undefined;
  #onFinalize: (() => void) | undefined;

  constructor(
    destination: Subscriber<any>,
    onNext?: (value: T) => void,
    onComplete?: () => void,
    onError?: (error: unknown) => void,
    onFinalize?: () => void,
  ) {
    super(destination);
    this.#onNext = onNext;
    this.#onComplete = onComplete;
    this.#onError = onError;
    this.#onFinalize = onFinalize;
  }

  protected override _next(value: T): void {
    const destination = this.destination as Subscriber<any>;
    try {
      if (this.#onNext) this.#onNext(value);
      else destination.next(value);
    } catch (error) {
      destination.error(error);
    }
  }

  protected override _error(error: unknown): void {
    const destination = this.destination as Subscriber<any>;
    try {
      if (this.#onError) this.#onError(error);
      else destination.error(error);
    } catch (thrown) {
      destination.error(thrown);
    } finally {
      this.unsubscribe();
    }
  }

  protected override _complete(): void {
    const destination = this.destination as Subscriber<any>;
    try {
      if (this.#onComplete) this.#onComplete();
      else destination.complete();
    } catch (error) {
      destination.error(error);
    } finally {
      this.unsubscribe();
    }
  }

  override unsubscribe(): void {
    if (this.closed) return;
    super.unsubscribe();
    const finalize = this.#onFinalize;
    this.#onFinalize = undefined;
    finalize?.();
  }
}

function isSubscriptionLike(value: unknown): value is { add(teardown: unknown): void } {
  const candidate = value as { add?: unknown; unsubscribe?: unknown; closed?: unknown };
  return (
    typeof candidate.add === 'function' &&
    typeof candidate.unsubscribe === 'function' &&
    typeof candidate.closed === 'boolean'
  );
}

/** Reports an error nobody can receive as RxJS does: `config.onUnhandledError`, or thrown on a later tick. */
function reportLater(error: unknown): void {
  setTimeout(() => {
    if (config.onUnhandledError) config.onUnhandledError(error);
    else throw error;
  });
}
