import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { filter, map, type Observable } from 'rxjs';
import { expect } from 'vitest';
import { onChunk } from '../../src/adapters/on-chunk.js';
import { toAsyncIterable } from '../../src/adapters/to-async-iterable.js';
import { toReadableStream } from '../../src/adapters/to-readable-stream.js';
import { type ExecEvent, type ExecLineEvent, exec } from '../../src/sources/exec.js';
import { fixture, groupGone, liveGroupMembers } from './processes.js';

/**
 * A python3 child that writes 128-byte numbered lines as fast as its (blocking) pipe takes them
 * and records in a side file how far it got (test/fixtures/adapter-counter.py), and a meter of
 * how far it runs ahead of a slow consumer. Where the lead sits when the demand reaches the child
 * (measured on a 2-core machine, see docs/backpressure.md):
 * - the child's stdout is a Unix socketpair (libuv's 'pipe' stdio): ~192–228 KiB;
 * - Python's own 8 KiB block;
 * - Node's socket buffer: the last read (up to 64 KiB);
 * - exec's queue of the lines split from the read being delivered when the demand paused;
 * - `bufferSize` lines in the adapter.
 * 228 + 8 + 64 + 64 = 364 KiB, plus `bufferSize` lines: 384 KiB leaves a little room, no more.
 * A lead is measured in bytes, what the pipe holds: a flood runs for a number of lines and on
 * until the meter has seen the child fill its pipe (`takeLines`), since past that point nothing
 * changes. A count of lines alone is not enough: a consumer paced by a timer (zip with
 * `interval`) holds the ticks that fired while python started, and on a loaded machine that
 * backlog lets it take every line of the count as fast as the child writes it.
 */
export const LINE_BYTES = 128;
/** Everything between the child's write() and the adapter (see above), in bytes. */
export const PIPE_AND_STREAM_BYTES = 384 * 1024;
/** A lead past this many bytes shows that the child filled its pipe and blocked on it. */
const FILLED_BYTES = 32 * 1024;
/** How many times its count of lines `takeLines` reads at most while the pipe is not yet seen full. */
const MAX_RUN_FACTOR = 20;
export const BUFFER_SIZE = 16;

const directories: string[] = [];

/** Removes the side files of every flood started so far. */
export function cleanFloods(): void {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
}

/** A cold flooding child (nothing runs until subscribed) and the meter that reads its progress. */
export function flood(): { events: Observable<ExecEvent>; meter: LeadMeter } {
  const directory = mkdtempSync(join(tmpdir(), 'sluice-flood-'));
  directories.push(directory);
  const progress = join(directory, 'progress');
  return {
    events: exec('python3', [fixture('adapter-counter.py'), progress, String(LINE_BYTES)]),
    meter: new LeadMeter(progress),
  };
}

/** A consumed line: the child's line number and the line. */
export interface FloodLine {
  readonly n: number;
  readonly line: string;
}

/** The stdout lines of a flood, numbered. */
export function floodLines(events: Observable<ExecEvent>): Observable<FloodLine> {
  return events.pipe(
    filter((event): event is ExecLineEvent => event.kind === 'stdout'),
    map((event) => ({ n: Number.parseInt(event.content.slice(0, 9), 10), line: event.content })),
  );
}

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** The process's RSS after a full garbage collection: what it really holds. */
function rssAfterGc(): number {
  collectGarbage();
  return process.memoryUsage().rss;
}

/** Tracks how far the child runs ahead of the consumer, and the process's RSS growth. */
export class LeadMeter {
  consumed = 0;
  /** The most bytes the child had written beyond the last line consumed, at a sample. */
  maxLeadBytes = 0;
  maxRssGrowth = 0;
  readonly #rssBefore = rssAfterGc();

  constructor(readonly progress: string) {}

  /** Records one consumed line: checks it is the next one (nothing lost, nothing reordered). */
  take(item: FloodLine): void {
    expect(item.n).toBe(this.consumed + 1);
    expect(item.line).toHaveLength(LINE_BYTES);
    this.consumed = item.n;
    if (this.consumed % 25 === 0) this.sample();
  }

  /** Whether a sample has seen the child far enough ahead to have filled its pipe. */
  get filled(): boolean {
    return this.maxLeadBytes > FILLED_BYTES;
  }

  sample(): void {
    const written = this.read()?.written;
    if (written !== undefined)
      this.maxLeadBytes = Math.max(this.maxLeadBytes, (written - this.consumed) * LINE_BYTES);
    let growth = process.memoryUsage().rss - this.#rssBefore;
    // Garbage not yet collected is not growth: past a quarter of the bound, collect and look again.
    if (growth > 5 * 1024 * 1024) growth = rssAfterGc() - this.#rssBefore;
    this.maxRssGrowth = Math.max(this.maxRssGrowth, growth);
  }

  /** The child's pid and how many lines it has written, once it started. */
  read(): { pid: number; written: number } | undefined {
    let text: string;
    try {
      text = readFileSync(this.progress, 'utf8');
    } catch {
      return undefined;
    }
    const [pid, written] = text.trim().split(/\s+/).map(Number);
    return pid && written !== undefined && Number.isInteger(written) ? { pid, written } : undefined;
  }

  /**
   * The child really filled its pipe and blocked on it, and never ran further ahead than the pipe
   * and `heldLines` lines (what the operators and the adapter between them may hold); the process
   * grew by less than `maxRssGrowth`.
   */
  expectBounded(heldLines = BUFFER_SIZE, maxRssGrowth = 20 * 1024 * 1024): void {
    this.sample();
    expect(this.consumed).toBeGreaterThan(100); // the consumer did run for a while…
    expect(this.filled).toBe(true); // …the child filled its pipe…
    expect(this.maxLeadBytes).toBeLessThanOrEqual(heldLines * LINE_BYTES + PIPE_AND_STREAM_BYTES); // …no more
    expect(this.maxRssGrowth).toBeLessThan(maxRssGrowth);
  }

  /** The child's whole process group is gone. */
  async expectGone(): Promise<void> {
    const child = this.read();
    expect(child).toBeDefined();
    const pid = child?.pid ?? 0;
    expect(await groupGone(pid, 15_000)).toBe(true);
    expect(liveGroupMembers(pid)).toEqual([]);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How a slow consumer reads: `take` returns whether to go on; each item costs `delayMs`. */
export type SlowConsumer = <T>(
  source: Observable<T>,
  take: (item: T) => boolean,
  options?: { readonly delayMs?: number; readonly onWarn?: (message: string) => void },
) => Promise<void>;

const warnings = (onWarn?: (message: string) => void) => ({
  logger: { warn: onWarn ?? ((message: string) => expect.fail(message)) },
});

/** The three adapters as slow consumers that stop (`break`, abort, cancel) when `take` says so. */
export const slowConsumers: Readonly<Record<'for await' | 'onChunk' | 'ReadableStream', SlowConsumer>> = {
  'for await': async (source, take, options = {}) => {
    for await (const item of toAsyncIterable(source, {
      bufferSize: BUFFER_SIZE,
      ...warnings(options.onWarn),
    })) {
      if (!take(item)) break;
      if (options.delayMs !== 0) await sleep(options.delayMs ?? 1);
    }
  },
  onChunk: async (source, take, options = {}) => {
    const controller = new AbortController();
    const done = onChunk(
      source,
      async (item) => {
        if (!take(item)) controller.abort(new Error('enough'));
        else if (options.delayMs !== 0) await sleep(options.delayMs ?? 1);
      },
      {
        bufferSize: BUFFER_SIZE,
        signal: controller.signal,
        onError: (error) => expect.fail(String(error)),
        ...warnings(options.onWarn),
      },
    );
    await done.catch((error: Error) => {
      if (error.message !== 'enough') throw error;
    });
  },
  ReadableStream: async (source, take, options = {}) => {
    const reader = toReadableStream(source, {
      highWaterMark: BUFFER_SIZE,
      ...warnings(options.onWarn),
    }).getReader();
    for (;;) {
      const result = await reader.read();
      if (result.done || !take(result.value)) break;
      if (options.delayMs !== 0) await sleep(options.delayMs ?? 1);
    }
    await reader.cancel();
  },
};

/**
 * A `take` that meters each line and stops after `count` lines, or later, once the meter has seen
 * the child fill its pipe (see above); it gives up waiting for that after `MAX_RUN_FACTOR` times
 * `count` lines, and `expectBounded` then fails.
 */
export function takeLines(meter: LeadMeter, count: number): (item: FloodLine) => boolean {
  return (item) => {
    meter.take(item);
    if (meter.consumed < count) return true;
    if (!meter.filled) meter.sample(); // the count is reached: look at every line from now on
    return !meter.filled && meter.consumed < MAX_RUN_FACTOR * count;
  };
}
