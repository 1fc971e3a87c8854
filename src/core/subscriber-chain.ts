import { config, type Observer, Subscriber } from 'rxjs';
import type { Demand } from './demand.js';

/**
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
/** A demand tag: a `Demand`, or `null` for "explicitly none: push freely". */
type Tag = Demand | null;
type Node = { [DEMAND]?: Tag; destination?: unknown; partialObserver?: unknown; observers?: unknown };

/** How far a walk goes before giving up (a chain this long is a cycle or a bug). */
const MAX_HOPS = 10_000;

/**
 * What the walk found: a demand; `null` (a subscriber explicitly carries none); a `Subject`, whose
 * demand is its subscribers' (combined by `AggregateDemand`); or `undefined` (the chain ended
 * without a tag, or went through an observer that hides what is below it, such as the connection
 * of RxJS's `share()`).
 */
export type ChainDemand = Demand | null | { readonly subject: SubjectNode } | undefined;

/** A `Subject` as far as the walk needs it: its live list of subscribers. */
export interface SubjectNode {
  readonly observers: readonly unknown[] | null;
}

/**
 * Walks the subscriber chain from `start` (the subscriber a producer was given) towards the
 * consumer and returns the first demand tag or `Subject` found.
 *
 * @example
 * ```ts
 * new Observable((subscriber) => {
 *   const found = walkChain(subscriber); // the consumer's Valve, wherever it subscribed from
 * });
 * ```
 */
export function walkChain(start: unknown): ChainDemand {
  let node = start as Node | null | undefined;
  for (let hops = 0; hops < MAX_HOPS; hops += 1) {
    if (node === null || node === undefined || typeof node !== 'object') return undefined;
    if (DEMAND in node) return node[DEMAND] ?? null;
    if (isSubject(node)) return { subject: node as SubjectNode };
    node = ('destination' in node ? node.destination : node.partialObserver) as Node | null | undefined;
  }
  return undefined;
}

function isSubject(node: Node): boolean {
  const candidate = node as { observers?: unknown; next?: unknown; asObservable?: unknown };
  return (
    Array.isArray(candidate.observers) &&
    typeof candidate.next === 'function' &&
    typeof candidate.asObservable === 'function'
  );
}

/**
 * The subscribers of a `Subject` right now (an empty list once it completed or was unsubscribed).
 *
 * @example
 * ```ts
 * subjectObservers(subject).length; // how many consumers are subscribed
 * ```
 */
export function subjectObservers(subject: SubjectNode): readonly unknown[] {
  return subject.observers ?? [];
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
  (subscriber as Node)[DEMAND] = demand;
  return subscriber;
}

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
 * below, so the walk of {@link walkChain} passes through it.
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
