import fc from 'fast-check';
import type { Observable } from 'rxjs';
import * as rx from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { concatAll, concatMap, mergeAll, mergeMap } from '../../src/operators/merge-map.js';
import { mergeScan } from '../../src/operators/merge-scan.js';
import { zip, zipAll, zipWith } from '../../src/operators/zip.js';

// Each of sluice's buffering operators and RxJS's, on the same random marbles in virtual time:
// the notifications (with their frames) and every source's subscription log must be identical.
// (In a TestScheduler nothing reads demand, so the pause itself never shows here: this is the
// "values, order, errors, completion, teardown and subscriptions are RxJS's" half.)

/** A cold marble: up to 8 frames of values or silence, then completion, an error, or nothing. */
const marble = fc
  .tuple(
    fc.array(fc.constantFrom('-', '-', 'a', 'b', 'c', '(ab)'), { maxLength: 8 }),
    fc.constantFrom('|', '|', '#', ''),
  )
  .map(([frames, end]) => frames.join('') + end);

/** Where the consumer unsubscribes, if it does. */
const unsubscribeAt = fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined });

interface Played {
  readonly notifications: string[];
  readonly subscriptions: (readonly [number, number])[][];
}

/** A cold marble observable of strings, with its subscription log. */
type Cold = Observable<string> & {
  readonly subscriptions: readonly { readonly subscribedFrame: number; readonly unsubscribedFrame: number }[];
};
type MakeCold = (marbles: string) => Cold;

/** Runs `build` in virtual time: what the consumer saw, and the subscription log of each source. */
function play(build: (cold: MakeCold) => { out: Observable<unknown>; sources: Cold[] }, stopAt?: number) {
  const scheduler = new TestScheduler(() => {});
  let played: Played = { notifications: [], subscriptions: [] };
  scheduler.run(({ cold, flush }) => {
    const { out, sources } = build((marbles) => cold<string>(marbles));
    const notifications: string[] = [];
    const at = () => scheduler.now();
    const subscription = out.subscribe({
      next: (value) => notifications.push(`${at()}:N${JSON.stringify(value)}`),
      error: (error) => notifications.push(`${at()}:E${String(error)}`),
      complete: () => notifications.push(`${at()}:C`),
    });
    if (stopAt !== undefined) scheduler.schedule(() => subscription.unsubscribe(), stopAt);
    flush();
    played = {
      notifications,
      subscriptions: sources.map((source) =>
        source.subscriptions.map((log) => [log.subscribedFrame, log.unsubscribedFrame] as const),
      ),
    };
  });
  return played;
}

/** The inner observable of the n-th outer value (cycling through the marbles given). */
const innerOf = (inners: Cold[], index: number) => inners[index % inners.length] as Cold;

const RUNS = 150;

describe("sluice's buffering operators and RxJS's on random marbles: identical notifications and subscriptions", () => {
  it('concatMap', () => {
    fc.assert(
      fc.property(
        marble,
        fc.array(marble, { minLength: 1, maxLength: 3 }),
        unsubscribeAt,
        (outer, inners, stop) => {
          const run = (operator: typeof rx.concatMap) =>
            play((cold) => {
              const source = cold(outer);
              const innerSources = inners.map((inner) => cold(inner));
              const out = source.pipe(
                operator((value, index) => innerOf(innerSources, index).pipe(rx.map((x) => value + x))),
              );
              return { out, sources: [source, ...innerSources] };
            }, stop);
          expect(run(concatMap as typeof rx.concatMap)).toEqual(run(rx.concatMap));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('mergeMap, with any concurrency', () => {
    const concurrency = fc.constantFrom(1, 2, 3, Number.POSITIVE_INFINITY);
    fc.assert(
      fc.property(
        marble,
        fc.array(marble, { minLength: 1, maxLength: 3 }),
        concurrency,
        unsubscribeAt,
        (outer, inners, concurrent, stop) => {
          const run = (operator: typeof rx.mergeMap) =>
            play((cold) => {
              const source = cold(outer);
              const innerSources = inners.map((inner) => cold(inner));
              const out = source.pipe(
                operator(
                  (value, index) => innerOf(innerSources, index).pipe(rx.map((x) => value + x)),
                  concurrent,
                ),
              );
              return { out, sources: [source, ...innerSources] };
            }, stop);
          expect(run(mergeMap as typeof rx.mergeMap)).toEqual(run(rx.mergeMap));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('concatAll and mergeAll(2)', () => {
    fc.assert(
      fc.property(
        marble,
        fc.array(marble, { minLength: 1, maxLength: 3 }),
        unsubscribeAt,
        (outer, inners, stop) => {
          for (const [ours, theirs] of [
            [concatAll(), rx.concatAll()],
            [mergeAll(2), rx.mergeAll(2)],
          ] as const) {
            const run = (operator: rx.OperatorFunction<Observable<string>, string>) =>
              play((cold) => {
                const source = cold(outer);
                const innerSources = inners.map((inner) => cold(inner));
                let index = 0;
                const out = source.pipe(
                  rx.map(() => innerOf(innerSources, index++)),
                  operator,
                );
                return { out, sources: [source, ...innerSources] };
              }, stop);
            expect(run(ours)).toEqual(run(theirs));
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('mergeScan, with any concurrency', () => {
    const concurrency = fc.constantFrom(1, 2, Number.POSITIVE_INFINITY);
    fc.assert(
      fc.property(
        marble,
        fc.array(marble, { minLength: 1, maxLength: 3 }),
        concurrency,
        unsubscribeAt,
        (outer, inners, concurrent, stop) => {
          const run = (operator: typeof rx.mergeScan) =>
            play((cold) => {
              const source = cold(outer);
              const innerSources = inners.map((inner) => cold(inner));
              const out = source.pipe(
                operator(
                  (acc: string, value: string, index) =>
                    innerOf(innerSources, index).pipe(rx.map((x) => acc + value + x)),
                  '',
                  concurrent,
                ),
              );
              return { out, sources: [source, ...innerSources] };
            }, stop);
          expect(run(mergeScan as typeof rx.mergeScan)).toEqual(run(rx.mergeScan));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('zip, zipWith and zipAll', () => {
    fc.assert(
      fc.property(fc.array(marble, { minLength: 1, maxLength: 3 }), unsubscribeAt, (marbles, stop) => {
        const forms: [
          string,
          (sources: Cold[]) => Observable<unknown>,
          (sources: Cold[]) => Observable<unknown>,
        ][] = [
          ['zip', (sources) => zip(sources), (sources) => rx.zip(sources)],
          [
            'zip with a result selector',
            (sources) => zip(sources, (...values: string[]) => values.join('+')),
            (sources) => rx.zip(sources, (...values: string[]) => values.join('+')),
          ],
          [
            'zipWith',
            ([first, ...others]) => (first as Cold).pipe(zipWith(...others)),
            ([first, ...others]) => (first as Cold).pipe(rx.zipWith(...others)),
          ],
          [
            'zipAll',
            (sources) => rx.from(sources).pipe(zipAll()),
            (sources) => rx.from(sources).pipe(rx.zipAll()),
          ],
        ];
        for (const [name, ours, theirs] of forms) {
          const run = (build: (sources: Cold[]) => Observable<unknown>) =>
            play((cold) => {
              const sources = marbles.map((source) => cold(source));
              return { out: build(sources), sources };
            }, stop);
          expect(run(ours), name).toEqual(run(theirs));
        }
      }),
      { numRuns: RUNS },
    );
  });
});
