import { config, type Observable, type Observer, Subscriber, type Subscription } from 'rxjs';
import { AggregateDemand, type Governor } from './aggregate-demand.js';
import type { Demand } from './demand.js';

/**
 * The subscriber chain and every tag sluice leaves on it. Three side channels ride on the
 * subscribers a chain is made of, each read by a producer from the subscriber it was given:
 *
 * - **the demand tag** ({@link subscribeWithDemand}, {@link tagDemand}; found by {@link demandOf},
 *   walking down to the first tag): when the producer reads;
 * - **the direct sink** ({@link offerDirectSink}; found by {@link directSinkOf} on the producer's
 *   own subscriber only): where it may push values past `subscriber.next`;
 * - **the stall mark** ({@link markStalled}; found by {@link stalledBelow}, walking down): why it
 *   was unsubscribed.
 *
 * Everything sluice relies on in RxJS that is not public API lives in this one file, and
 * `test/core/subscriber-chain.test.ts` fails loudly if an RxJS release changes it:
 *
 * 1. **The subscriber chain.** Every RxJS 7 operator subscribes to its source with a `Subscriber`
 *    whose (protected, deprecated) `destination` field is the subscriber below it — RxJS's own
 *    `OperatorSubscriber`, or the downstream subscriber itself for `defer`, `catchError`,
 *    `subscribeOn`. That holds for the *inner* subscriptions of `concatMap`, `mergeMap`,
 *    `switchMap`, `exhaustMap`, `concat`, `merge`, `race`, and for every re-subscription by `retry`,
 *    `repeat` and `catchError`, whenever they happen. So a producer can find its consumer by
 *    walking `destination` from the subscriber it was given.
 * 2. **The consumer at the end.** `subscribe(observer)` with a plain observer wraps it in a
 *    `SafeSubscriber` whose `destination` is an internal `ConsumerObserver` holding the observer as
 *    `partialObserver`. The walk follows that too, which is how `source.subscribe(subject)` leads
 *    to the `Subject`.
 * 3. **A Subject's subscribers.** `Subject#observers` (public but deprecated) is the live list of
 *    the subscribers of a `Subject` (and of `BehaviorSubject`, `ReplaySubject`, `AsyncSubject`).
 * 4. **`new Subscriber(destination)`** (deprecated in RxJS 7): subclassed here, and nowhere else in
 *    sluice, for the subscribers that carry a demand and for `createOperatorSubscriber`.
 *
 * The `rxjs` peer range (`^7.8.0`) is what this was checked against. See docs/backpressure.md.
 */

const DEMAND = Symbol.for('sluice.demand');
const SINK = Symbol.for('sluice.directSink');
const STALLED = Symbol.for('sluice.stalled');

/** A subscriber as the walk sees it: the tags it may carry and the links to the one below. */
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
 * The one walk: from `start` towards the consumer, `destination` after `destination` (and a
 * `ConsumerObserver`'s `partialObserver`), until `visit` returns something other than `undefined`.
 * Returns that, or `undefined` when the chain ended (or went through an observer that hides what
 * is below it, such as the connection of RxJS's `share()`).
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

// ---------------------------------------------------------------------------------------------
// The demand tag

/**
 * The demand of the consumer that `subscriber` ends up delivering to — what a producer calls,
 * first thing in its subscribe function, to know when to stop reading.
 *
 * It walks the subscriber chain from `subscriber` down to the consumer (see
 * docs/backpressure.md), so it does not matter *when* the producer is subscribed: the inner
 * observables of `concatMap`, `mergeMap`, `switchMap`, `exhaustMap`, `concat`, `merge`, `race`,
 * `defer`, and the re-subscriptions of `retry`, `repeat` and `catchError` all find the demand of
 * the adapter (`toAsyncIterable`, `onChunk`, `toReadableStream`, a {@link subscribeWithDemand})
 * at the end of their chain. Through a `Subject` (and so `connectable()`, and sluice's `share()`)
 * it is the combined demand of the Subject's subscribers: paused while any of them is.
 *
 * Where the chain says nothing (plain `subscribe()`, a `null` tag, or an observer that hides what
 * is below it) it returns `undefined`: nobody asked, push freely.
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

/** The slowest-governed demand of a Subject's subscribers: one per Subject, whoever asks. */
function subjectDemand(subject: object): AggregateDemand {
  let demand = subjects.get(subject);
  if (demand === undefined) {
    demand = subscribersDemand(subject, 'slowest') as AggregateDemand;
    subjects.set(subject, demand);
  }
  return demand;
}

/**
 * A new demand combining the subscribers of `subject` by `governor`, each found with
 * {@link demandOf}; `undefined` when `subject` is not a `Subject` (of any kind). A subscriber
 * whose chain leads back into this very demand (the Subject's source reads the Subject itself:
 * `withLatestFrom(defer(() => shared))`) cannot govern the producer it feeds on: it counts as a
 * subscriber without demand.
 *
 * @example
 * ```ts
 * const demand = subscribersDemand(subject, 'fastest');
 * subscribeWithDemand(source, demand ?? null, subject);
 * ```
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

/** Whether `node` is a `Subject` (of any kind): a live array of observers, `next` and `asObservable`. */
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

/**
 * Marks `subscriber` as carrying `demand` (or, with `null`, as carrying none: whatever it
 * subscribes to pushes freely). A walk from above stops at it.
 *
 * @example
 * ```ts
 * const upstream = createOperatorSubscriber(subscriber, onNext);
 * tagDemand(upstream, ownValve); // bounded(): the source sees this operator's valve
 * ```
 */
export function tagDemand<S extends object>(subscriber: S, demand: Demand | null): S {
  (subscriber as ChainNode)[DEMAND] = demand;
  return subscriber;
}

/**
 * Subscribes `observer` to `source` carrying `demand` — the one way a consumer hands its demand
 * to the producers above it (see docs/backpressure.md). The demand rides on the subscriber chain,
 * where {@link demandOf} finds it, so producers subscribed later (by `concatMap`, `retry`, a second
 * consumer of `share()`) see it too. `null` means explicitly none: what is above pushes freely,
 * whatever a consumer further down asks (exec's `input`, a stream the caller does not govern).
 *
 * - A plain observer is wrapped in a subscriber that carries `demand`; what its callbacks throw is
 *   reported on a later tick, as RxJS does for `subscribe(observer)`.
 * - A `Subscriber` of your own (made for this one subscription, such as an operator's
 *   `createOperatorSubscriber(...)`) carries `demand` itself: no extra hop per value.
 * - `owner`, when given, holds the subscription before `source` is subscribed: unsubscribing it
 *   from a callback stops even a synchronous source mid-way.
 *
 * Returns the subscription (the subscriber itself).
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

// ---------------------------------------------------------------------------------------------
// The direct sink

/**
 * A consumer's queue offered to the producer it subscribes to *directly* (nothing in between):
 * the producer may push into it instead of calling `subscriber.next` per value, and follows its
 * `demand` (the queue's valve). What it saves is a second queue on the hot path: `exec` keeps the
 * lines of the read in hand in its own queue while the consumer is paused; with a direct sink
 * they wait in the consumer's queue instead, once (docs/performance.md, "One queue on the hot
 * path"). Ending, errors and teardown still go through the subscriber. Internal: not exported
 * from the package.
 */
export interface DirectSink<T> {
  /** The consumer's demand: the producer stops reading while it is paused. */
  readonly demand: Demand;
  /** Takes one value, in order with every other value and behind none of them. */
  push(value: T): void;
}

/**
 * Offers `sink` on `subscriber` (a subscriber made for one subscription, whose `next` does what
 * `sink.push` does). Only the producer given exactly this subscriber finds it: any operator in
 * between subscribes with a subscriber of its own, which carries none.
 *
 * @example
 * ```ts
 * const subscriber = offerDirectSink(new ObserverSubscriber(observer), { demand: queue.producerValve, push });
 * ```
 */
export function offerDirectSink<S extends object, T>(subscriber: S, sink: DirectSink<T>): S {
  Object.defineProperty(subscriber, SINK, { value: sink });
  return subscriber;
}

/**
 * The {@link DirectSink} the producer's own `subscriber` offers, if any (never one further down
 * the chain: the values would skip the operators between).
 *
 * @example
 * ```ts
 * const sink = directSinkOf<ExecEvent>(subscriber); // toAsyncIterable(exec(…)): the iterator's queue
 * ```
 */
export function directSinkOf<T>(subscriber: object): DirectSink<T> | undefined {
  return Object.hasOwn(subscriber, SINK) ? ((subscriber as ChainNode)[SINK] as DirectSink<T>) : undefined;
}

// ---------------------------------------------------------------------------------------------
// The stall mark

/**
 * Marks `subscriber` (the one a stall detector subscribed its source with) as unsubscribed for a
 * stall of `ms` milliseconds, just before the detector unsubscribes it, so that the producer above
 * learns why it was cancelled ({@link stalledBelow}): its span ends with `stall`, not `cancel`
 * (docs/tracing.md).
 *
 * @example
 * ```ts
 * markStalled(upstream, 30_000);
 * upstream.unsubscribe();
 * ```
 */
export function markStalled(subscriber: object, ms: number): void {
  (subscriber as ChainNode)[STALLED] = ms;
}

/**
 * The stall timeout (ms) a stall detector marked on `subscriber` or on a subscriber below it, or
 * `undefined` when the unsubscribe was not for a stall. Asked once, when a producer is cancelled.
 *
 * @example
 * ```ts
 * const reason = stalledBelow(subscriber) === undefined ? 'cancel' : 'stall';
 * ```
 */
export function stalledBelow(subscriber: object): number | undefined {
  return walk(subscriber, stallAt);
}

function stallAt(node: ChainNode): number | undefined {
  return node[STALLED];
}

// ---------------------------------------------------------------------------------------------
// sluice's subscribers

/**
 * A `Subscriber` that hands everything to a plain `observer`, guarded like RxJS's
 * `SafeSubscriber`: what the observer's callbacks throw is reported as an uncaught error on a
 * later tick. What {@link subscribeWithDemand} wraps a plain observer in.
 *
 * @example
 * ```ts
 * source.subscribe(tagDemand(new ObserverSubscriber({ next: (value) => queue.push(value) }), valve));
 * ```
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

/**
 * The subscriber of an operator: forwards to `destination` unless a handler is given, sends what
 * a handler throws to `destination.error`, runs `onFinalize` once however it ends — RxJS's own
 * `OperatorSubscriber`, rebuilt on the public constructor. Its `destination` is the subscriber
 * below, so the walk of {@link demandOf} passes through it.
 *
 * @example
 * ```ts
 * source.subscribe(new OperatorSubscriber(subscriber, (value) => subscriber.next(value * 2)));
 * ```
 */
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

  /** The subscriber below (RxJS keeps it in a protected field). */
  get downstream(): Subscriber<any> {
    return this.destination as Subscriber<any>;
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

/** Reports an error nobody can receive the way RxJS does: `config.onUnhandledError`, or thrown on a later tick. */
function reportLater(error: unknown): void {
  setTimeout(() => {
    if (config.onUnhandledError) config.onUnhandledError(error);
    else throw error;
  });
}
