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
  map,
  merge,
  mergeAll,
  mergeMap,
  mergeWith,
  NEVER,
  type Observable,
  race,
  repeat,
  retry,
  share as rxShare,
  Subject,
  startWith,
  switchAll,
  switchMap,
  takeUntil,
  timer,
} from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { share, shareReplay } from '../../src/operators/share.js';
import { type ExecEvent, exec } from '../../src/sources/exec.js';
import {
  BUFFER_SIZE,
  cleanFloods,
  type FloodLine,
  flood,
  floodLines,
  type LeadMeter,
  PIPE_AND_STREAM_BYTES,
  slowConsumers,
  takeLines,
} from '../support/flood.js';
import { needs } from '../support/system-tools.js';

// Each composition puts a flooding python child (test/support/flood.ts) behind RxJS's own
// operators, subscribed later than the consumer (an asynchronous trigger, as a queue, a click or a
// file watcher is), and a consumer that takes one line per millisecond. The child must stay within
// bufferSize + 384 KiB of the consumer, the process's RSS must grow by less than 20 MB, and the
// child's whole group must be gone after the consumer stops. Before demand travelled on the
// subscriber chain, these let the child run 345 000–545 000 lines ahead in 2 s.

/** Lines each slow consumer takes (about a millisecond each) before it stops. */
const CONSUMED_LINES = 200;
/** A command that fails at once, for retry and catchError. */
const failing = () => exec('sh', ['-c', 'exit 3']);

afterAll(cleanFloods);

type Composition = (child: Observable<ExecEvent>) => Observable<ExecEvent | string>;

const compositions: Record<string, Composition> = {
  'concat (build, then test)': (child) => concat(exec('true'), child),
  concatWith: (child) => exec('true').pipe(concatWith(child)),
  'concatMap (a queue of commands)': (child) => timer(5).pipe(concatMap(() => child)),
  'mergeMap (a pool)': (child) => timer(5).pipe(mergeMap(() => child, 4)),
  'switchMap (restart on change)': (child) => timer(5).pipe(switchMap(() => child)),
  exhaustMap: (child) => timer(5).pipe(exhaustMap(() => child)),
  concatAll: (child) =>
    timer(5).pipe(
      map(() => child),
      concatAll(),
    ),
  mergeAll: (child) =>
    timer(5).pipe(
      map(() => child),
      mergeAll(2),
    ),
  switchAll: (child) =>
    timer(5).pipe(
      map(() => child),
      switchAll(),
    ),
  merge: (child) => merge(timer(5).pipe(concatMap(() => child)), NEVER),
  mergeWith: (child) =>
    timer(5).pipe(
      concatMap(() => child),
      mergeWith(NEVER),
    ),
  defer: (child) => timer(5).pipe(concatMap(() => defer(() => child))),
  'startWith / endWith': (child) => child.pipe(startWith('first'), endWith('last')),
  takeUntil: (child) => timer(5).pipe(concatMap(() => child.pipe(takeUntil(NEVER)))),
  race: (child) => race(timer(5).pipe(concatMap(() => child)), NEVER),
  'retry (a flaky tool)': (child) => {
    let attempts = 0;
    return defer(() => (attempts++ === 0 ? failing() : child)).pipe(retry(1));
  },
  repeat: (child) => {
    let runs = 0;
    return defer(() => (runs++ === 0 ? exec('true') : child)).pipe(repeat(2));
  },
  catchError: (child) => failing().pipe(catchError(() => child)),
  'shareReplay (one consumer)': (child) => child.pipe(shareReplay({ bufferSize: 1, refCount: true })),
};

const lines = (source: Observable<ExecEvent | string>): Observable<FloodLine> =>
  floodLines(source as Observable<ExecEvent>);

describe.skipIf(!needs('linux', 'ps', 'python3')).each(Object.entries(slowConsumers))(
  'demand through compositions, consumed by %s',
  (_, consume) => {
    it.each(Object.entries(compositions))('%s', async (_name, compose) => {
      const { events, meter } = flood();
      await consume(lines(compose(events)), takeLines(meter, CONSUMED_LINES));
      meter.expectBounded();
      await meter.expectGone();
    });
  },
);

describe.skipIf(!needs('linux', 'ps', 'python3'))(
  'several consumers of one producer: the slowest governs, losslessly',
  () => {
    /**
     * Two consumers of `source` at once, one fast (no delay) and one slow (metered); returns how far
     * the fast one ever got ahead of the slow one while both ran.
     */
    async function twoConsumers(source: Observable<ExecEvent>, meter: LeadMeter, connect?: () => void) {
      const fast = new Counter();
      let maxAhead = 0;
      const slowTake = takeLines(meter, CONSUMED_LINES);
      const slowDone = slowConsumers['for await'](floodLines(source), (item) => {
        maxAhead = Math.max(maxAhead, fast.count - item.n);
        return slowTake(item);
      });
      const fastDone = slowConsumers.onChunk(floodLines(source), (item) => fast.take(item), { delayMs: 0 });
      connect?.();
      await slowDone;
      return { fast, fastDone, maxAhead };
    }

    it("sluice's share(): both see every line once and the slow one holds the child back", async () => {
      const { events, meter } = flood();
      const shared = events.pipe(share());
      const { fast, fastDone, maxAhead } = await twoConsumers(shared, meter);
      meter.expectBounded();
      // The fast consumer is never further ahead than what waits in the slow one's buffer.
      expect(fast.count).toBeGreaterThanOrEqual(meter.consumed);
      expect(maxAhead).toBeLessThanOrEqual(2 * BUFFER_SIZE);
      // The slow one left: the fast one now drains the child freely; stop it and check the group.
      fast.stop = true;
      await fastDone;
      await meter.expectGone();
    });

    it("one consumer of sluice's share() holds the child back; of RxJS's own share(), it does not and is warned", async () => {
      const ours = flood();
      await slowConsumers['for await'](
        floodLines(ours.events.pipe(share())),
        takeLines(ours.meter, CONSUMED_LINES),
      );
      ours.meter.expectBounded();
      await ours.meter.expectGone();
      // RxJS's share() subscribes its source with a subscriber that hides the consumer: the child
      // floods, the adapter's buffer grows, and the adapter says so.
      const theirs = flood();
      const warnings: string[] = [];
      const far = 2 * PIPE_AND_STREAM_BYTES;
      await slowConsumers['for await'](
        floodLines(theirs.events.pipe(rxShare())),
        (item) => {
          theirs.meter.take(item);
          theirs.meter.sample();
          return theirs.meter.maxLeadBytes <= far && theirs.meter.consumed < 20 * CONSUMED_LINES;
        },
        { onWarn: (message) => warnings.push(message) },
      );
      expect(theirs.meter.maxLeadBytes).toBeGreaterThan(far);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain("RxJS's share() — use sluice's share()");
      await theirs.meter.expectGone();
    });

    it('connectable() with a Subject: both see every line once and the slow one governs', async () => {
      const { events, meter } = flood();
      const shared = connectable(events, { connector: () => new Subject<ExecEvent>() });
      let connection: { unsubscribe(): void } | undefined;
      const { fast, fastDone, maxAhead } = await twoConsumers(shared, meter, () => {
        connection = shared.connect();
      });
      meter.expectBounded();
      expect(maxAhead).toBeLessThanOrEqual(2 * BUFFER_SIZE);
      fast.stop = true;
      await fastDone;
      connection?.unsubscribe();
      await meter.expectGone();
    });

    it('a Subject fed by exec: its slow subscriber pauses the child', async () => {
      const { events, meter } = flood();
      const subject = new Subject<ExecEvent>();
      const consumed = slowConsumers.ReadableStream(floodLines(subject), takeLines(meter, CONSUMED_LINES));
      const feeding = events.subscribe(subject);
      await consumed;
      meter.expectBounded();
      feeding.unsubscribe();
      await meter.expectGone();
    });

    it("share({ governor: 'fastest' }): the fast consumer sets the pace, the slow one keeps the newest", async () => {
      const { events, meter } = flood();
      const shared = events.pipe(
        share({ governor: 'fastest', slowConsumer: { bufferSize: 64, strategy: 'sliding' } }),
      );
      let slowSeen = 0;
      let dropped = 0;
      const slow = slowConsumers['for await'](
        shared,
        (event) => {
          slowSeen += 1;
          dropped += event.metadata?.dropped ?? 0;
          return slowSeen < 100;
        },
        { delayMs: 5 },
      );
      const fast = new Counter();
      const fastDone = slowConsumers.onChunk(
        floodLines(shared),
        (item) => fast.take(item) && fast.count < 20_000,
        {
          delayMs: 0,
        },
      );
      await Promise.all([slow, fastDone]);
      expect(fast.count).toBe(20_000); // every line, in order
      expect(dropped).toBeGreaterThan(1000); // the slow one fell behind and was told how much
      await meter.expectGone();
    });
  },
);

class Counter {
  count = 0;
  stop = false;

  take(item: FloodLine): boolean {
    expect(item.n).toBe(this.count + 1);
    this.count = item.n;
    return !this.stop;
  }
}
