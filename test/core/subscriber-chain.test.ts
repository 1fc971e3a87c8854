import {
  AsyncSubject,
  BehaviorSubject,
  catchError,
  concat,
  concatMap,
  connectable,
  defer,
  exhaustMap,
  map,
  merge,
  mergeMap,
  NEVER,
  Observable,
  type Observer,
  ReplaySubject,
  race,
  repeat,
  retry,
  share as rxShare,
  Subject,
  Subscriber,
  subscribeOn,
  switchMap,
  takeUntil,
  VirtualTimeScheduler,
} from 'rxjs';
import { describe, expect, it } from 'vitest';
import { AggregateDemand } from '../../src/core/aggregate-demand.js';
import { Valve } from '../../src/core/demand.js';
import {
  demandOf,
  ObserverSubscriber,
  OperatorSubscriber,
  subscribeWithDemand,
  tagDemand,
} from '../../src/core/subscriber-chain.js';

// The canary. sluice's demand reaches a producer subscribed at any time by walking RxJS's
// subscriber chain, which is not RxJS's public API. Every such behaviour is asserted here, each
// test named for the sluice feature it protects; a failure says which RxJS internal changed and
// points at the one file that relies on it.

const FILE = 'src/core/subscriber-chain.ts';

/** The message of a failed canary: what changed in RxJS, and where sluice relies on it. */
function rxjsChanged(internal: string, point: number): string {
  return (
    `RxJS internal changed: ${internal}. sluice's demand relies on it (${FILE}, point ${point} of its ` +
    'header comment): adapt that file, then check the `rxjs` peer range in package.json.'
  );
}

type Hop = { destination?: unknown; partialObserver?: unknown };

/**
 * Follows `destination` (and, with `throughObservers`, a `ConsumerObserver`'s `partialObserver`)
 * from `start`; returns whether `target` was reached and the path, by constructor name.
 */
function follow(start: unknown, target: unknown, throughObservers = false): { found: boolean; path: string } {
  const path: string[] = [];
  let node = start as Hop | null | undefined;
  for (let hops = 0; hops < 64 && node !== null && node !== undefined; hops += 1) {
    path.push(node === target ? 'TARGET' : (node.constructor?.name ?? typeof node));
    if (node === target) return { found: true, path: path.join(' → ') };
    node = ('destination' in node ? node.destination : throughObservers ? node.partialObserver : undefined) as
      | Hop
      | null
      | undefined;
  }
  path.push(String(node));
  return { found: false, path: path.join(' → ') };
}

/** A producer that never ends and records the subscriber it was given, each time it is subscribed. */
function recorder(
  given: Subscriber<unknown>[],
  onSubscribe?: (subscriber: Subscriber<unknown>, nth: number) => void,
) {
  return new Observable<unknown>((subscriber) => {
    given.push(subscriber);
    onSubscribe?.(subscriber, given.length);
  });
}

/** A consumer Subscriber: the target every walk must reach. */
class Consumer extends Subscriber<unknown> {}

interface ChainCase {
  /** The RxJS internal whose change breaks the case, in words. */
  readonly internal: string;
  /** Builds the composition around `producer` and subscribes `consumer`; may trigger later subscriptions. */
  readonly run: (producer: Observable<unknown>, consumer: Subscriber<unknown>) => void;
  /** How many subscriptions of the producer `run` makes. Default 1. */
  readonly subscriptions?: number;
}

const failFirst = (subscriber: Subscriber<unknown>, nth: number) =>
  nth === 1 ? subscriber.error(new Error('attempt 1')) : undefined;
const completeFirst = (subscriber: Subscriber<unknown>, nth: number) =>
  nth === 1 ? subscriber.complete() : undefined;

/** Each operator whose subscriptions must keep `destination` pointing at the subscriber below. */
const operatorCases: Record<string, ChainCase & { readonly behaviour?: typeof failFirst }> = {
  map: {
    internal: "map's OperatorSubscriber no longer keeps the subscriber below in `destination`",
    run: (producer, consumer) => producer.pipe(map((value) => value)).subscribe(consumer),
  },
  'concatMap inner': {
    internal: "concatMap's inner subscriber no longer keeps the subscriber below in `destination`",
    run: (producer, consumer) => {
      const trigger = new Subject<void>();
      trigger.pipe(concatMap(() => producer)).subscribe(consumer);
      trigger.next(); // subscribed later than the consumer, as a queue of commands is
    },
  },
  'mergeMap inner': {
    internal: "mergeMap's inner subscriber no longer keeps the subscriber below in `destination`",
    subscriptions: 2,
    run: (producer, consumer) => {
      const trigger = new Subject<void>();
      trigger.pipe(mergeMap(() => producer, 2)).subscribe(consumer);
      trigger.next();
      trigger.next();
    },
  },
  'switchMap inner': {
    internal: "switchMap's inner subscriber no longer keeps the subscriber below in `destination`",
    subscriptions: 2,
    run: (producer, consumer) => {
      const trigger = new Subject<void>();
      trigger.pipe(switchMap(() => producer)).subscribe(consumer);
      trigger.next();
      trigger.next(); // the restart
    },
  },
  'exhaustMap inner': {
    internal: "exhaustMap's inner subscriber no longer keeps the subscriber below in `destination`",
    run: (producer, consumer) => {
      const trigger = new Subject<void>();
      trigger.pipe(exhaustMap(() => producer)).subscribe(consumer);
      trigger.next();
    },
  },
  'concat (a later source)': {
    internal: "concat's subscriber of a later source no longer keeps the subscriber below in `destination`",
    run: (producer, consumer) => {
      const first = new Subject<never>();
      concat(first, producer).subscribe(consumer);
      first.complete();
    },
  },
  merge: {
    internal: "merge's inner subscriber no longer keeps the subscriber below in `destination`",
    run: (producer, consumer) => merge(NEVER, producer).subscribe(consumer),
  },
  race: {
    internal: "race's subscriber of each contestant no longer keeps the subscriber below in `destination`",
    run: (producer, consumer) => race(NEVER, producer).subscribe(consumer),
  },
  'retry re-subscriptions': {
    internal: "retry's re-subscription no longer keeps the subscriber below in `destination`",
    subscriptions: 2,
    behaviour: failFirst,
    run: (producer, consumer) => producer.pipe(retry(1)).subscribe(consumer),
  },
  'repeat re-subscriptions': {
    internal: "repeat's re-subscription no longer keeps the subscriber below in `destination`",
    subscriptions: 2,
    behaviour: completeFirst,
    run: (producer, consumer) => producer.pipe(repeat(2)).subscribe(consumer),
  },
  'catchError replacement': {
    internal:
      'catchError no longer subscribes the replacement with the subscriber below (or one whose `destination` leads to it)',
    run: (producer, consumer) =>
      new Observable<unknown>((subscriber) => subscriber.error(new Error('failed')))
        .pipe(catchError(() => producer))
        .subscribe(consumer),
  },
  defer: {
    internal: 'defer no longer subscribes the deferred source with the subscriber it was given',
    run: (producer, consumer) => defer(() => producer).subscribe(consumer),
  },
  takeUntil: {
    internal:
      'takeUntil no longer subscribes its source with the subscriber below (or one whose `destination` leads to it)',
    run: (producer, consumer) => producer.pipe(takeUntil(NEVER)).subscribe(consumer),
  },
  subscribeOn: {
    internal: "subscribeOn's scheduled subscription no longer keeps the subscriber below on the chain",
    run: (producer, consumer) => {
      const scheduler = new VirtualTimeScheduler();
      producer.pipe(subscribeOn(scheduler, 5)).subscribe(consumer);
      scheduler.flush();
    },
  },
};

describe('the RxJS internals sluice relies on (the canary of src/core/subscriber-chain.ts)', () => {
  describe('1. every operator subscribes with a subscriber whose `destination` chain leads to the subscriber below', () => {
    for (const [name, chainCase] of Object.entries(operatorCases)) {
      it(`protects demand reaching a producer subscribed by ${name}`, () => {
        const given: Subscriber<unknown>[] = [];
        const consumer = new Consumer();
        const walks: { found: boolean; path: string }[] = [];
        const producer = recorder(given, (subscriber, nth) => {
          // Walked while subscribing, as a producer calls demandOf().
          walks.push(follow(subscriber, consumer));
          (chainCase as { behaviour?: typeof failFirst }).behaviour?.(subscriber, nth);
        });
        chainCase.run(producer, consumer);
        expect(walks.length, `${name}: the producer was not subscribed as often as expected`).toBe(
          chainCase.subscriptions ?? 1,
        );
        for (const walk of walks) {
          expect(walk.found, `${rxjsChanged(chainCase.internal, 1)} Path walked: ${walk.path}`).toBe(true);
        }
        consumer.unsubscribe();
      });
    }

    it('protects the consumer at the end: subscribe() hands a Subscriber to the producer as it is, unwrapped', () => {
      const given: Subscriber<unknown>[] = [];
      const consumer = new Consumer();
      recorder(given).subscribe(consumer);
      expect(
        given[0] === consumer,
        rxjsChanged('Observable#subscribe now wraps a Subscriber it is given', 1),
      ).toBe(true);
      consumer.unsubscribe();
    });
  });

  describe('2. subscribe(observer) wraps the observer in a SafeSubscriber whose `destination.partialObserver` is that observer', () => {
    it('protects a plain observer at the end of the chain (subscribeWithDemand and a Subject are found through it)', () => {
      const given: Subscriber<unknown>[] = [];
      const observer: Partial<Observer<unknown>> = { next: () => {} };
      const subscription = recorder(given).subscribe(observer);
      const destination = (given[0] as unknown as Hop).destination as Hop | undefined;
      expect(
        destination?.partialObserver === observer,
        rxjsChanged(
          "SafeSubscriber's `destination` is no longer a ConsumerObserver whose `partialObserver` is the observer given to subscribe()",
          2,
        ),
      ).toBe(true);
      expect(
        destination !== undefined && !('destination' in destination),
        rxjsChanged('the ConsumerObserver behind a SafeSubscriber now has a `destination` of its own', 2),
      ).toBe(true);
      subscription.unsubscribe();
    });

    it('protects source.subscribe(subject): the walk through operators reaches the Subject', () => {
      const given: Subscriber<unknown>[] = [];
      const subject = new Subject<unknown>();
      const subscription = recorder(given)
        .pipe(map((value) => value))
        .subscribe(subject);
      const walk = follow(given[0], subject, true);
      expect(
        walk.found,
        `${rxjsChanged('subscribe(subject) no longer leads to the Subject through `destination` and `partialObserver`', 2)} Path walked: ${walk.path}`,
      ).toBe(true);
      subscription.unsubscribe();
    });

    it("protects connectable(): connect() subscribes the source with a chain that reaches connectable's Subject", () => {
      const given: Subscriber<unknown>[] = [];
      const subject = new Subject<unknown>();
      const shared = connectable(recorder(given), { connector: () => subject, resetOnDisconnect: false });
      const connection = shared.connect();
      const walk = follow(given[0], subject, true);
      expect(
        walk.found,
        `${rxjsChanged("connectable's connect() no longer subscribes the source with a chain that reaches its Subject", 2)} Path walked: ${walk.path}`,
      ).toBe(true);
      connection.unsubscribe();
    });
  });

  describe('3. Subject#observers is the live list of a Subject’s subscribers', () => {
    const subjects = {
      Subject: () => new Subject<unknown>(),
      BehaviorSubject: () => new BehaviorSubject<unknown>(0),
      ReplaySubject: () => new ReplaySubject<unknown>(),
      AsyncSubject: () => new AsyncSubject<unknown>(),
    };
    for (const [name, create] of Object.entries(subjects)) {
      it(`protects the combined demand of a ${name}'s consumers: subscribe adds, unsubscribe removes, the end empties`, () => {
        const subject = create();
        const observers = () => (subject as unknown as { observers: unknown }).observers;
        expect(Array.isArray(observers()), rxjsChanged(`${name}#observers is no longer an array`, 3)).toBe(
          true,
        );
        const demand = demandOf(subject);
        const first = new Consumer();
        const second = new Consumer();
        subject.pipe(map((value) => value)).subscribe(first);
        subject.subscribe(second);
        const list = observers() as unknown[];
        expect(list.length, rxjsChanged(`subscribing to a ${name} no longer adds to #observers`, 3)).toBe(2);
        const walk = follow(list[0], first);
        expect(
          walk.found,
          `${rxjsChanged(`an entry of ${name}#observers no longer leads to its consumer through \`destination\``, 3)} Path walked: ${walk.path}`,
        ).toBe(true);
        expect(
          list[1] === second,
          rxjsChanged(`${name}#observers no longer holds the subscriber itself`, 3),
        ).toBe(true);
        first.unsubscribe();
        expect(
          observers(),
          rxjsChanged(
            `unsubscribing from a ${name} no longer removes the subscriber from #observers at once`,
            3,
          ),
        ).toEqual([second]);
        expect(
          observers() === list,
          rxjsChanged(`${name}#observers is no longer one live array (a copy is made per change)`, 3),
        ).toBe(true);
        subject.complete();
        expect(observers(), rxjsChanged(`a completed ${name} still lists its subscribers`, 3)).toEqual([]);
        subject.unsubscribe();
        expect(demand?.paused).toBe(false); // #observers is null once unsubscribed: no member
      });
    }

    it('protects how a Subject is recognised on the chain: an array of observers, next and asObservable', () => {
      const subject = new Subject<unknown>();
      expect(demandOf(subject)).toBeInstanceOf(AggregateDemand);
      expect(
        typeof subject.next === 'function' && typeof subject.asObservable === 'function',
        rxjsChanged('a Subject no longer has next() and asObservable()', 3),
      ).toBe(true);
    });
  });

  describe("RxJS's share() hides its Subject from the shared source (why sluice's share() is a drop-in)", () => {
    it("documents that the source of RxJS's share() cannot see its consumers", () => {
      const given: Subscriber<unknown>[] = [];
      const consumer = new Consumer();
      const valve = new Valve();
      const shared = recorder(given).pipe(rxShare());
      subscribeWithDemand(shared, valve, {});
      shared.subscribe(consumer);
      const walked = demandOf(given[0] as Subscriber<unknown>);
      expect(
        walked === undefined,
        rxjsChanged(
          "RxJS's share() now lets its source reach its Subject or consumers through the chain (demandOf found " +
            `${String(walked)}): sluice's share() (src/operators/share.ts) may no longer be needed; revisit both`,
          2,
        ),
      ).toBe(true);
      consumer.unsubscribe();
    });
  });

  describe('4. new Subscriber(destination) chains to its destination', () => {
    it('protects OperatorSubscriber and the ObserverSubscriber of subscribeWithDemand: `destination` is set and the destination owns the subscriber', () => {
      const parent = new Consumer();
      const child = new (class extends Subscriber<unknown> {})(parent);
      expect(
        (child as unknown as Hop).destination === parent,
        rxjsChanged('new Subscriber(destination) no longer keeps `destination`', 4),
      ).toBe(true);
      parent.unsubscribe();
      expect(
        child.closed,
        rxjsChanged(
          'new Subscriber(destination) no longer adds itself to its destination (destination.add)',
          4,
        ),
      ).toBe(true);
    });

    it("protects sluice's own subscribers: an OperatorSubscriber passes the walk on, a tag stops it", () => {
      const valve = new Valve();
      const consumer = tagDemand(new ObserverSubscriber({}), valve);
      const operator = new OperatorSubscriber(consumer);
      expect(demandOf(operator)).toBe(valve);
      expect(demandOf(new OperatorSubscriber(tagDemand(new OperatorSubscriber(consumer), null)))).toBe(
        undefined,
      );
      consumer.unsubscribe();
      expect(operator.closed).toBe(true);
    });
  });
});
