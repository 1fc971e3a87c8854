import {
  from,
  interval,
  lastValueFrom,
  map,
  type Observable,
  type OperatorFunction,
  takeWhile,
  timer,
} from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { toAsyncIterable } from '../../src/adapters/to-async-iterable.js';
import { concatAll, concatMap, mergeAll, mergeMap } from '../../src/operators/merge-map.js';
import { mergeScan } from '../../src/operators/merge-scan.js';
import { zip, zipWith } from '../../src/operators/zip.js';
import {
  BUFFER_SIZE,
  cleanFloods,
  type FloodLine,
  flood,
  floodLines,
  slowConsumers,
  takeLines,
} from '../support/flood.js';
import { needs } from '../support/system-tools.js';

// Async work per line *inside* the pipeline, against a python child that writes as fast as its
// pipe allows (test/support/flood.ts), for RUN_LINES lines and on until the child was seen to fill
// its pipe (`takeLines`): unloaded, it fills it within the first few. With RxJS's own operators nothing asks the child to wait (it runs hundreds of
// thousands of lines ahead, +143 MB for concatMap). sluice's pause it once they hold their
// documented number of values, with or without a demanding consumer at the end.

afterAll(cleanFloods);

/** Lines each pipeline works on (about a millisecond each) before its consumer may stop. */
const RUN_LINES = 400;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** About a millisecond of asynchronous work on a line. */
const work = async (line: FloodLine): Promise<FloodLine> => {
  await sleep(1);
  return line;
};

interface Case {
  /** The pipeline from the flood's lines to the lines, worked on. */
  readonly pipe: OperatorFunction<FloodLine, FloodLine>;
  /** What the operator may hold: its documented bound. */
  readonly held: number;
}

const cases: Record<string, Case> = {
  'concatMap(work)': { pipe: concatMap((line) => from(work(line))), held: 1 + 16 },
  'mergeMap(work, 4)': { pipe: mergeMap((line) => from(work(line)), 4), held: 4 + 16 },
  'mergeMap(work) (unbounded concurrency)': { pipe: mergeMap((line) => from(work(line))), held: 16 },
  'map + concatAll()': {
    pipe: (lines) =>
      lines.pipe(
        map((line) => from(work(line))),
        concatAll(),
      ),
    held: 1 + 16,
  },
  'map + mergeAll(4)': {
    pipe: (lines) =>
      lines.pipe(
        map((line) => from(work(line))),
        mergeAll(4),
      ),
    held: 4 + 16,
  },
  'mergeScan(work, initial, 1)': {
    pipe: mergeScan((_last: FloodLine, line: FloodLine) => from(work(line)), { n: 0, line: '' }, 1),
    held: 1 + 16,
  },
  // The flood zipped with a source of one value per millisecond: the flood is the one ahead.
  'zip(flood, interval(1))': {
    pipe: (lines) => zip(lines, interval(1)).pipe(map(([line]) => line)),
    held: 16,
  },
  'zipWith(interval(1))': {
    pipe: (lines) =>
      lines.pipe(
        zipWith(interval(1)),
        map(([line]) => line),
      ),
    held: 16,
  },
};

/** Reads `lines`, each given to `take`, until `take` says to stop. */
type Consumer = (lines: Observable<FloodLine>, take: (line: FloodLine) => boolean) => Promise<void>;

/** Ends when `take` says so, with the line taken: completing unsubscribes (and so kills) the child. */
const whileTaking = (lines: Observable<FloodLine>, take: (line: FloodLine) => boolean) =>
  lines.pipe(takeWhile(take, true));

const consumers: Record<string, { readonly run: Consumer; readonly buffer: number }> = {
  'plain subscribe()': {
    buffer: 0,
    run: (lines, take) =>
      new Promise<void>((resolve, reject) => {
        whileTaking(lines, take).subscribe({ error: reject, complete: resolve });
      }),
  },
  lastValueFrom: {
    buffer: 0,
    run: async (lines, take) => {
      await lastValueFrom(whileTaking(lines, take));
    },
  },
  'for await (toAsyncIterable)': {
    buffer: BUFFER_SIZE,
    run: async (lines, take) => {
      for await (const line of toAsyncIterable(lines, { bufferSize: BUFFER_SIZE })) {
        if (!take(line)) break;
      }
    },
  },
};

describe.skipIf(!needs('linux', 'ps', 'python3')).each(Object.entries(cases))(
  '%s against a flooding child',
  (_name, { pipe, held }) => {
    it.each(Object.entries(consumers))(
      'with %s: the child stays within the operator’s and the consumer’s buffers plus the pipe; every line once, in order; nothing left',
      async (_consumer, { run, buffer }) => {
        const { events, meter } = flood();
        await run(floodLines(events).pipe(pipe), takeLines(meter, RUN_LINES));
        expect(meter.consumed).toBeGreaterThanOrEqual(RUN_LINES); // every line once, in order (LeadMeter.take)
        meter.expectBounded(held + buffer);
        await meter.expectGone();
      },
      30_000,
    );
  },
);

describe.skipIf(!needs('linux', 'ps', 'python3'))('the other adapters at the end', () => {
  it.each(Object.entries(slowConsumers))(
    'concatMap(work) read by %s: bounded by the operator and the adapter; every line once, in order',
    async (_adapter, consume) => {
      const { events, meter } = flood();
      await consume(
        floodLines(events).pipe(concatMap((line) => from(work(line)))),
        takeLines(meter, RUN_LINES),
        {
          delayMs: 0,
        },
      );
      meter.expectBounded(1 + 16 + BUFFER_SIZE);
      await meter.expectGone();
    },
    30_000,
  );

  it('a command run by sluice’s concatMap still sees the demand of the consumer below', async () => {
    const { events, meter } = flood();
    const queue = timer(5).pipe(concatMap(() => floodLines(events)));
    await slowConsumers['for await'](queue, takeLines(meter, RUN_LINES));
    meter.expectBounded();
    await meter.expectGone();
  }, 30_000);
});
