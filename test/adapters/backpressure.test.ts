import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filter, map, type Observable } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { onChunk } from '../../src/adapters/on-chunk.js';
import { toAsyncIterable } from '../../src/adapters/to-async-iterable.js';
import { toReadableStream } from '../../src/adapters/to-readable-stream.js';
import { type ExecLineEvent, exec } from '../../src/sources/exec.js';
import { groupGone, liveGroupMembers } from '../support/processes.js';
import { needs } from '../support/system-tools.js';

// A python3 child writes 128-byte numbered lines as fast as its (blocking) pipe takes them and
// records in a side file how far it got; the consumer takes one line per millisecond for
// CONSUME_LINES lines through `filter` + `map`. Measured on a 2-core machine: the child's lead stays at
// about 2560 lines (320 KiB), while the naive `concatMap(timer(1))` pipeline lets it run 1.4 M
// lines (180 MB) ahead in 1.5 s. Where the lead sits (measured with a counting port around exec):
// - the child's stdout is not a 64 KiB pipe but a Unix socketpair (libuv's 'pipe' stdio): the
//   kernel holds ~192 KiB of Python's 8 KiB writes (up to ~228 KiB with 64 KiB writes);
// - Python's own 8 KiB block;
// - Node's socket buffer: the last read (libuv reads up to 64 KiB at a time; pausing the socket
//   stops the reads after that one, whatever its highWaterMark — setting it to 1 changed nothing);
// - exec's queue: the lines split from the read that was being delivered when demand paused
//   (up to 64 KiB);
// - bufferSize lines in the adapter.
// 228 + 8 + 64 + 64 = 364 KiB, plus bufferSize lines: 384 KiB leaves a little room, no more.
const FIXTURE = fileURLToPath(new URL('../fixtures/adapter-counter.py', import.meta.url));
const LINE_BYTES = 128;
const BUFFER_SIZE = 16;
/** Lines each slow consumer takes (about a millisecond each): the child fills its pipe within the first few. */
const CONSUME_LINES = 400;
/** Everything between the child's write() and the adapter (see above), in lines. */
const PIPE_AND_STREAM_LINES = (384 * 1024) / LINE_BYTES;
/** Measured: bounded runs grow by < 10 MiB; the same run without demand grows by 85-100 MiB. */
const MAX_RSS_GROWTH = 40 * 1024 * 1024;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const directories: string[] = [];

afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

interface Line {
  readonly n: number;
  readonly line: string;
}

/** Starts nothing: returns the cold pipeline and a meter that tracks the child's lead. */
function counterRun(): { lines: Observable<Line>; meter: LeadMeter } {
  const directory = mkdtempSync(join(tmpdir(), 'sluice-backpressure-'));
  directories.push(directory);
  const progress = join(directory, 'progress');
  const lines = exec('python3', [FIXTURE, progress, String(LINE_BYTES)]).pipe(
    filter((event): event is ExecLineEvent => event.kind === 'stdout'),
    map((event) => ({ n: Number.parseInt(event.content.slice(0, 9), 10), line: event.content })),
  );
  return { lines, meter: new LeadMeter(progress) };
}

class LeadMeter {
  consumed = 0;
  maxLead = 0;
  maxRssGrowth = 0;
  readonly #rssBefore = process.memoryUsage().rss;

  constructor(readonly progress: string) {}

  /** Records one consumed line; returns whether the consumer should keep going. */
  take(item: Line): boolean {
    expect(item.n).toBe(this.consumed + 1); // nothing lost, nothing reordered
    expect(item.line).toHaveLength(LINE_BYTES);
    this.consumed = item.n;
    if (this.consumed % 25 === 0) this.sample();
    return this.consumed < CONSUME_LINES;
  }

  sample(): void {
    const written = this.read()?.written;
    if (written !== undefined) this.maxLead = Math.max(this.maxLead, written - this.consumed);
    this.maxRssGrowth = Math.max(this.maxRssGrowth, process.memoryUsage().rss - this.#rssBefore);
  }

  read(): { pid: number; written: number } | undefined {
    const [pid, written] = readFileSync(this.progress, 'utf8').trim().split(/\s+/).map(Number);
    return pid && written !== undefined && Number.isInteger(written) ? { pid, written } : undefined;
  }
}

async function expectGroupGone(pgid: number): Promise<void> {
  expect(await groupGone(pgid, 15_000)).toBe(true);
  expect(liveGroupMembers(pgid)).toEqual([]); // and `ps` agrees
}

function expectBounded(meter: LeadMeter): void {
  meter.sample();
  expect(meter.consumed).toBeGreaterThan(100); // the consumer did run for a while…
  expect(meter.maxLead).toBeGreaterThan(256); // …the child filled the pipe and blocked on it…
  expect(meter.maxLead).toBeLessThanOrEqual(BUFFER_SIZE + PIPE_AND_STREAM_LINES); // …never further
  expect(meter.maxRssGrowth).toBeLessThan(MAX_RSS_GROWTH);
}

describe.skipIf(!needs('linux', 'ps', 'python3'))(
  'backpressure from the adapters to a real child process, through map and filter',
  () => {
    it('toAsyncIterable: the child waits for the slow for-await loop; break kills its group', async () => {
      const { lines, meter } = counterRun();
      for await (const item of toAsyncIterable(lines, { bufferSize: BUFFER_SIZE })) {
        if (!meter.take(item)) break;
        await sleep(1);
      }
      const child = meter.read();
      expect(child).toBeDefined();
      expectBounded(meter);
      await expectGroupGone(child?.pid ?? 0);
    });

    it('onChunk: an async callback paces the child; aborting kills its group', async () => {
      const { lines, meter } = counterRun();
      const controller = new AbortController();
      const done = onChunk(
        lines,
        async (item) => {
          if (!meter.take(item)) controller.abort(new Error('enough'));
          await sleep(1);
        },
        {
          bufferSize: BUFFER_SIZE,
          signal: controller.signal,
          onError: (error) => expect.fail(String(error)),
        },
      );
      await expect(done).rejects.toThrow('enough');
      const child = meter.read();
      expect(child).toBeDefined();
      expectBounded(meter);
      await expectGroupGone(child?.pid ?? 0);
    });

    it('toReadableStream: the child waits for the slow reader; cancel kills its group', async () => {
      const { lines, meter } = counterRun();
      const reader = toReadableStream(lines, { highWaterMark: BUFFER_SIZE }).getReader();
      for (;;) {
        const result = await reader.read();
        if (result.done) throw new Error('the endless child ended');
        if (!meter.take(result.value)) break;
        await sleep(1);
      }
      await reader.cancel();
      const child = meter.read();
      expect(child).toBeDefined();
      expectBounded(meter);
      await expectGroupGone(child?.pid ?? 0);
    });
  },
);
