import {
  catchError,
  concat,
  concatAll,
  concatMap,
  concatWith,
  connectable,
  defer,
  endWith,
  exhaustMap,
  filter,
  map,
  merge,
  mergeAll,
  mergeMap,
  mergeWith,
  NEVER,
  Observable,
  type OperatorFunction,
  race,
  repeat,
  retry,
  share as rxShare,
  Subject,
  type Subscriber,
  startWith,
  subscribeOn,
  switchAll,
  switchMap,
  takeUntil,
  VirtualTimeScheduler,
} from 'rxjs';
import { describe, expect, it } from 'vitest';
import { type Demand, Valve } from '../../src/core/demand.js';
import { demandOf, subscribeWithDemand } from '../../src/core/subscriber-chain.js';
import { bounded } from '../../src/operators/bounded.js';
import { share } from '../../src/operators/share.js';
import { withDemand } from '../../src/testing/index.js';

/**
 * A synchronous producer that records what `demandOf` gives it each time it is subscribed; the
 * n-th subscription may fail or complete at once (for retry, repeat, catchError).
 */
function probe(seen: (Demand | undefined)[], end?: (subscriber: Subscriber<unknown>, nth: number) => void) {
  return new Observable<unknown>((subscriber) => {
    seen.push(demandOf(subscriber));
    end?.(subscriber, seen.length);
  });
}

/** Operators and creators that subscribe the producer later than the consumer subscribed. */
const later: Record<string, (producer: Observable<unknown>, trigger: Subject<void>) => Observable<unknown>> =
  {
    concat: (producer, trigger) => concat(trigger.pipe(takeUntil(trigger)), producer),
    concatWith: (producer, trigger) => trigger.pipe(takeUntil(trigger), concatWith(producer)),
    concatMap: (producer, trigger) => trigger.pipe(concatMap(() => producer)),
    'mergeMap (concurrency 2)': (producer, trigger) => trigger.pipe(mergeMap(() => producer, 2)),
    switchMap: (producer, trigger) => trigger.pipe(switchMap(() => producer)),
    exhaustMap: (producer, trigger) => trigger.pipe(exhaustMap(() => producer)),
    concatAll: (producer, trigger) =>
      trigger.pipe(
        map(() => producer),
        concatAll(),
      ),
    mergeAll: (producer, trigger) =>
      trigger.pipe(
        map(() => producer),
        mergeAll(2),
      ),
    switchAll: (producer, trigger) =>
      trigger.pipe(
        map(() => producer),
        switchAll(),
      ),
    merge: (producer, trigger) => merge(NEVER, trigger.pipe(concatMap(() => producer))),
    mergeWith: (producer, trigger) => NEVER.pipe(mergeWith(trigger.pipe(concatMap(() => producer)))),
    defer: (producer, trigger) => trigger.pipe(concatMap(() => defer(() => producer))),
    startWith: (producer, trigger) => trigger.pipe(concatMap(() => producer.pipe(startWith('first')))),
    endWith: (producer, trigger) => trigger.pipe(concatMap(() => producer.pipe(endWith('last')))),
    takeUntil: (producer, trigger) => trigger.pipe(concatMap(() => producer.pipe(takeUntil(NEVER)))),
    race: (producer, trigger) => trigger.pipe(concatMap(() => race(NEVER, producer))),
    'map and filter': (producer, trigger) =>
      trigger.pipe(
        concatMap(() => producer),
        map((value) => value),
        filter(() => true),
      ),
  };

describe('demandOf', () => {
  describe('finds the consumer’s demand on the subscriber chain, whenever the producer is subscribed', () => {
    for (const [name, compose] of Object.entries(later)) {
      it(`through ${name}`, () => {
        const seen: (Demand | undefined)[] = [];
        const trigger = new Subject<void>();
        const valve = new Valve();
        const subscription = subscribeWithDemand(compose(probe(seen), trigger), valve, {});
        expect(seen).toEqual([]);
        trigger.next();
        expect(seen.length).toBeGreaterThan(0);
        for (const demand of seen) expect(demand).toBe(valve);
        subscription.unsubscribe();
      });
    }

    it('through the re-subscriptions of retry', () => {
      const seen: (Demand | undefined)[] = [];
      const valve = new Valve();
      const failTwice = (subscriber: Subscriber<unknown>, nth: number) =>
        nth <= 2 ? subscriber.error(new Error(`attempt ${nth}`)) : undefined;
      subscribeWithDemand(probe(seen, failTwice).pipe(retry(2)), valve, {});
      expect(seen).toEqual([valve, valve, valve]);
    });

    it('through the re-subscriptions of repeat', () => {
      const seen: (Demand | undefined)[] = [];
      const valve = new Valve();
      subscribeWithDemand(
        probe(seen, (subscriber, nth) => (nth <= 2 ? subscriber.complete() : undefined)).pipe(repeat(3)),
        valve,
        {},
      );
      expect(seen).toEqual([valve, valve, valve]);
    });

    it('through the replacement of catchError', () => {
      const seen: (Demand | undefined)[] = [];
      const valve = new Valve();
      subscribeWithDemand(
        probe(seen, (subscriber, nth) => (nth === 1 ? subscriber.error(new Error('first')) : undefined)).pipe(
          catchError((_error, caught) => caught),
        ),
        valve,
        {},
      );
      expect(seen).toEqual([valve, valve]);
    });

    it('through subscribeOn (subscribed on a later tick of a scheduler)', () => {
      const seen: (Demand | undefined)[] = [];
      const valve = new Valve();
      const scheduler = new VirtualTimeScheduler();
      subscribeWithDemand(probe(seen).pipe(subscribeOn(scheduler, 10)), valve, {});
      expect(seen).toEqual([]);
      scheduler.flush();
      expect(seen).toEqual([valve]);
    });

    it("through sluice's own operators (bounded with 'suspend' gives its own valve instead)", () => {
      const seen: (Demand | undefined)[] = [];
      const valve = new Valve();
      const events = probe(seen) as Observable<never>;
      subscribeWithDemand(events.pipe(bounded({ bufferSize: 4 })), valve, {});
      expect(seen[0]).toBeInstanceOf(Valve);
      expect(seen[0]).not.toBe(valve);
    });
  });

  describe('a Subject feeding several consumers: their combined demand (slowest governs)', () => {
    it('source.subscribe(subject): paused while any demanding consumer is paused; plain subscribers never pause it', () => {
      const seen: (Demand | undefined)[] = [];
      const subject = new Subject<unknown>();
      const a = new Valve();
      const b = new Valve();
      subscribeWithDemand(subject, a, {});
      subject.subscribe(() => {}); // a plain consumer
      const late = subscribeWithDemand(subject, b, {});
      probe(seen)
        .pipe(map((value) => value))
        .subscribe(subject);
      const demand = seen[0] as Demand;
      expect(demand).toBeDefined();
      expect(demand.paused).toBe(false);
      const told: boolean[] = [];
      demand.onChange((paused) => told.push(paused));
      b.pause();
      expect(demand.paused).toBe(true);
      late.unsubscribe(); // the paused consumer leaves: the producer goes on
      expect(demand.paused).toBe(false);
      a.pause();
      a.resume();
      expect(told).toEqual([true, false, true, false]);
    });

    it('is one combined demand per Subject, whoever asks', () => {
      const seen: (Demand | undefined)[] = [];
      const subject = new Subject<unknown>();
      probe(seen).subscribe(subject);
      probe(seen).subscribe(subject);
      expect(seen[0]).toBe(seen[1]);
    });

    it('through connectable(): consumers that subscribe before or after connect() all count', () => {
      const seen: (Demand | undefined)[] = [];
      const shared = connectable(probe(seen));
      const early = new Valve();
      subscribeWithDemand(shared, early, {});
      const connection = shared.connect();
      const demand = seen[0] as Demand;
      const late = new Valve();
      subscribeWithDemand(shared, late, {});
      late.pause();
      expect(demand.paused).toBe(true);
      late.resume();
      early.pause();
      expect(demand.paused).toBe(true);
      connection.unsubscribe();
    });

    it("through sluice's share(): every consumer, whenever it subscribed", () => {
      const seen: (Demand | undefined)[] = [];
      const shared = probe(seen).pipe(share());
      const first = new Valve();
      const second = new Valve();
      subscribeWithDemand(shared, first, {});
      subscribeWithDemand(shared, second, {});
      expect(seen.length).toBe(1);
      const demand = seen[0] as Demand;
      second.pause();
      expect(demand.paused).toBe(true);
      second.resume();
      expect(demand.paused).toBe(false);
    });

    it("not through RxJS's share(): its connection hides the consumers from the source", () => {
      const seen: (Demand | undefined)[] = [];
      const shared = probe(seen).pipe(rxShare());
      withDemand(new Valve(), shared).subscribe();
      withDemand(new Valve(), shared).subscribe();
      expect(seen).toEqual([undefined]);
    });
  });

  describe('explicit absence', () => {
    it('a `null` tag is explicitly none: the producer pushes freely, whatever a consumer further down asks', () => {
      const seen: (Demand | undefined)[] = [];
      const ungoverned = new Observable<number>((subscriber) =>
        subscribeWithDemand(probe(seen), null, subscriber),
      );
      withDemand(new Valve(), ungoverned).subscribe();
      expect(seen).toEqual([undefined]);
    });

    it('a producer subscribed later by an operator still finds the demand (it rides on the chain)', () => {
      const seen: (Demand | undefined)[] = [];
      const trigger = new Subject<void>();
      const valve = new Valve();
      subscribeWithDemand(trigger.pipe(concatMap(() => probe(seen))), valve, {});
      trigger.next();
      expect(seen).toEqual([valve]);
    });

    it("bounded({ strategy: 'dropping' | 'sliding' | 'error' }) subscribes its source with no demand", () => {
      for (const strategy of ['dropping', 'sliding', 'error'] as const) {
        const seen: (Demand | undefined)[] = [];
        const valve = new Valve();
        const events = probe(seen) as Observable<never>;
        withDemand(
          valve,
          events.pipe(bounded({ bufferSize: 4, strategy }) as OperatorFunction<never, never>),
        ).subscribe();
        expect(seen).toEqual([undefined]);
      }
    });

    it('a plain subscribe() gives undefined: nobody asked', () => {
      const seen: (Demand | undefined)[] = [];
      probe(seen)
        .pipe(map((value) => value))
        .subscribe();
      expect(seen).toEqual([undefined]);
    });
  });
});
