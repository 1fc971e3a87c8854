import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { concatMap, fromEvent, map, mergeMap, timer } from 'rxjs';
import { exec, onChunk, toAsyncIterable } from '../src/index.js';
// Loaded up front like every other variant's modules, so module loading is not counted as growth.
import { connectExtension, createHost } from '../src/kernel/index.js';
import type { SlowFigures } from './bench-result.js';
import { LINE_BYTES } from './line-format.js';

/** What a slow-consumer variant gets: the producer command and the consumer's bookkeeping. */
export interface SlowRun {
  readonly command: string;
  readonly args: readonly string[];
  /** Call once per line consumed. */
  take(): void;
  /** `true` once the run is over (time up or RSS cap): the variant must cancel and return. */
  readonly done: boolean;
  /** Resolves when the run is over. */
  readonly over: Promise<void>;
}

/** The parent's RSS at which a run that does not bound its memory is stopped. */
export const RSS_CAP_BYTES = 1536 * 1024 * 1024;
/** The bufferSize every bounded variant uses. */
export const SLOW_BUFFER_SIZE = 16;

const quiet = { warn() {} };

/**
 * Runs one slow-consumer variant against `flood.py` (a 1 GiB attempted write of 60-byte lines)
 * for `slowMs` from the child's start, consuming about one line per millisecond, and samples every 20 ms the child's
 * lead (`wchar` of `/proc/<pid>/io` − bytes consumed) and the parent's RSS. A run whose RSS
 * reaches {@link RSS_CAP_BYTES} is stopped early.
 *
 * @example
 * ```ts
 * const figures = await measureSlow(slowVariants['slow-exec-iterable'], '/tmp/side', fixture, 3000);
 * ```
 */
export async function measureSlow(
  variant: (run: SlowRun) => Promise<void>,
  side: string,
  flood: string,
  slowMs: number,
): Promise<SlowFigures> {
  rmSync(side, { force: true });
  const rssStartBytes = process.memoryUsage.rss();
  const spawned = performance.now();
  let started = spawned;
  let consumed = 0;
  let maxLeadBytes = 0;
  let written = 0;
  let rssPeakBytes = rssStartBytes;
  let stoppedBy: SlowFigures['stoppedBy'] = 'time';
  let pid: number | undefined;
  let finish = () => {};
  const over = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const run = {
    command: 'python3',
    args: [flood, side],
    done: false,
    over,
    take: () => {
      consumed += 1;
    },
  };
  const sample = () => {
    if (pid === undefined) {
      pid = readPid(side);
      // The window starts when the child runs (python's start-up is not the consumer's time).
      if (pid !== undefined) started = performance.now();
      else if (performance.now() - started < 10_000) return;
    }
    if (pid !== undefined) written = readWchar(pid) ?? written;
    // On a loaded machine python may run a while before its first write: the window waits for it.
    if (written === 0 && performance.now() - spawned < 10_000) {
      started = performance.now();
      return;
    }
    maxLeadBytes = Math.max(maxLeadBytes, written - consumed * LINE_BYTES);
    const rss = process.memoryUsage.rss();
    rssPeakBytes = Math.max(rssPeakBytes, rss);
    if (run.done) return;
    if (rss >= RSS_CAP_BYTES) stoppedBy = 'rss';
    else if (performance.now() - started < slowMs) return;
    run.done = true;
    finish();
  };
  const sampler = setInterval(sample, 20);
  try {
    await variant(run);
  } finally {
    clearInterval(sampler);
    if (pid !== undefined) killQuietly(pid);
  }
  return {
    maxLeadBytes,
    consumedLines: consumed,
    childWrittenBytes: written,
    rssStartBytes,
    rssPeakBytes,
    stoppedBy,
    seconds: (performance.now() - started) / 1000,
  };
}

function readPid(side: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(side, 'utf8'), 10);
    return Number.isInteger(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

function readWchar(pid: number): number | undefined {
  try {
    const match = /wchar:\s*(\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined; // exited
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * `for await` that takes one line per millisecond until the run is over.
 *
 * @example
 * ```ts
 * await consumeSlowly(toAsyncIterable(lines$), run);
 * ```
 */
export async function consumeSlowly(lines: AsyncIterable<unknown>, run: SlowRun): Promise<void> {
  for await (const _line of lines) {
    run.take();
    if (run.done) break;
    await sleep(1);
  }
}

/**
 * The slow-consumer variants: the naive RxJS pipeline, two bounded raw baselines, and sluice's
 * three bounded consumers (async iterator, async `onChunk`, the kernel's host + bridge).
 *
 * @example
 * ```ts
 * await measureSlow(slowVariants['slow-naive-rxjs'], side, flood, 3000);
 * ```
 */
export const slowVariants: Record<string, (run: SlowRun) => Promise<void>> = {
  /** `fromEvent(stdout, 'data')` → split → `concatMap(line => timer(1))`: nothing pauses the pipe. */
  'slow-naive-rxjs': async (run) => {
    const child = spawn(run.command, run.args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let carry = '';
    const subscription = fromEvent(child.stdout, 'data')
      .pipe(
        mergeMap((chunk) => {
          const lines = (carry + String(chunk)).split('\n');
          carry = lines.pop() ?? '';
          return lines;
        }),
        concatMap((line) => timer(1).pipe(map(() => line))),
      )
      .subscribe(() => run.take());
    await run.over;
    subscription.unsubscribe();
    child.kill('SIGKILL');
  },
  /**
   * The transport's floor: a parent that never reads. The child still gets this far ahead: Node's
   * child stdio 'pipe' is an AF_UNIX socketpair (its kernel buffer) plus Node's readable buffer.
   */
  'slow-no-read': async (run) => {
    const child = spawn(run.command, run.args, { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.pause();
    await run.over;
    child.kill('SIGKILL');
  },
  'slow-readline-iterator': async (run) => {
    const child = spawn(run.command, run.args, { stdio: ['ignore', 'pipe', 'inherit'] });
    await consumeSlowly(createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY }), run);
    child.kill('SIGKILL');
  },
  'slow-execa-iterator': async (run) => {
    const subprocess = execa(run.command, run.args, { buffer: false, stderr: 'inherit' });
    subprocess.catch(() => {});
    await consumeSlowly(subprocess, run).catch((error: unknown) => {
      if (!run.done) throw error;
    });
    subprocess.kill('SIGKILL');
  },
  'slow-exec-iterable': (run) =>
    consumeSlowly(toAsyncIterable(exec(run.command, run.args), { bufferSize: SLOW_BUFFER_SIZE }), run),
  /** The same on a terminal (`tty: true`): `script` and the terminal's buffers sit between the child and the pipe. */
  'slow-exec-tty': (run) =>
    consumeSlowly(
      toAsyncIterable(exec(run.command, run.args, { tty: true }), { bufferSize: SLOW_BUFFER_SIZE }),
      run,
    ),
  /**
   * node-pty with a hand-written bounded reader: lines queue up from `onData`, `pause()` at 16
   * waiting, `resume()` when the consumer has taken them.
   */
  'slow-node-pty': async (run) => {
    const { spawn: spawnPty } = await import('@lydell/node-pty');
    const pty = spawnPty(run.command, [...run.args], { cols: 80, rows: 24 });
    const waiting: string[] = [];
    let carry = '';
    let paused = false;
    pty.onData((data) => {
      const lines = (carry + data).split('\n');
      carry = lines.pop() ?? '';
      waiting.push(...lines);
      if (waiting.length >= SLOW_BUFFER_SIZE && !paused) {
        paused = true;
        pty.pause();
      }
    });
    while (!run.done) {
      if (waiting.shift() === undefined) {
        await sleep(1);
        continue;
      }
      run.take();
      if (paused && waiting.length === 0) {
        paused = false;
        pty.resume();
      }
      await sleep(1);
    }
    pty.kill('SIGKILL');
  },
  'slow-exec-onchunk': async (run) => {
    const abort = new AbortController();
    void run.over.then(() => abort.abort());
    await onChunk(
      exec(run.command, run.args),
      async () => {
        run.take();
        await sleep(1);
      },
      { bufferSize: SLOW_BUFFER_SIZE, signal: abort.signal },
    ).catch((error: unknown) => {
      if (!abort.signal.aborted) throw error;
    });
  },
  'slow-kernel-stream': async (run) => {
    const host = createHost({ logger: quiet });
    const { api } = connectExtension(host, 'bench');
    await consumeSlowly(
      api.exec(run.command, [...run.args], { stream: true, bufferSize: SLOW_BUFFER_SIZE }),
      run,
    );
  },
};
