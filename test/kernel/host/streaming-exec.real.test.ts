import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { createBridge } from '../../../src/kernel/bridge/bridge.js';
import { connectExtension } from '../../../src/kernel/bridge/connect-extension.js';
import { createExtensionApi } from '../../../src/kernel/bridge/extension-api.js';
import { createHost } from '../../../src/kernel/host/create-host.js';
import type { HostcallOutcome } from '../../../src/kernel/protocol/hostcall-outcome.js';
import { needs } from '../../support/system-tools.js';

/** python3 child: writes its pid to argv[1], then argv[2] numbered lines (-1: forever), each flushed; argv[3] = 'grandchild' also starts a `sleep` in its group. */
const WRITER = [
  'import os, subprocess, sys',
  "if len(sys.argv) > 3: subprocess.Popen(['sleep', '300'])",
  "with open(sys.argv[1], 'w') as f: f.write(str(os.getpid()))",
  'n = int(sys.argv[2])',
  'i = 0',
  'while n < 0 or i < n:',
  "    sys.stdout.write('line %08d\\n' % i)",
  '    sys.stdout.flush()',
  '    i += 1',
].join('\n');
const LINE_BYTES = 'line 00000000\n'.length;

const dir = mkdtempSync(join(tmpdir(), 'sluice-host-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const pidFile = () => {
  files += 1;
  return join(dir, `pid-${files}`);
};
const line = (i: number) => `line ${String(i).padStart(8, '0')}\n`;

/**
 * Reads what the iterator still yields after the stream was ended by the host (stall, cancel,
 * unload): the lines it had already asked for — the next ones, at most `window` of them — then done.
 */
async function drainRest(iterator: AsyncIterator<unknown>, from: number, window: number): Promise<void> {
  const rest: unknown[] = [];
  for (let result = await iterator.next(); !result.done; result = await iterator.next())
    rest.push(result.value);
  expect(rest.length).toBeLessThanOrEqual(window);
  expect(rest).toEqual(Array.from({ length: rest.length }, (_, i) => line(from + i)));
  expect(await iterator.next()).toEqual({ value: undefined, done: true });
}

/** Reads `iterator` to its end: how many chunks were `line`; any other chunk must be a clean exit. */
async function countToExit(iterator: AsyncIterator<unknown>, line: string): Promise<number> {
  let lines = 0;
  for (let result = await iterator.next(); !result.done; result = await iterator.next()) {
    if (result.value === line) lines += 1;
    else expect(result.value).toMatchObject({ exitCode: 0 });
  }
  return lines;
}

async function waitFor<T>(probe: () => T | undefined, what: string, deadlineMs = 15_000): Promise<T> {
  const end = performance.now() + deadlineMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (performance.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function readPid(file: string): Promise<number> {
  return waitFor(() => {
    try {
      const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
      return Number.isInteger(pid) && pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  }, `pid file ${file}`);
}

/** Live (non-zombie) members of process group `pgid`, according to `ps`. */
function groupMembers(pgid: number): string[] {
  const out = execFileSync('ps', ['-eo', 'pgid=,pid=,stat=,comm='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((row) => row.trim().split(/\s+/))
    .filter((cols) => Number(cols[0]) === pgid && !(cols[2] ?? '').startsWith('Z'))
    .map((cols) => cols.join(' '));
}

function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return groupMembers(pgid).length > 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

const waitGone = (pgid: number) =>
  waitFor(() => (groupExists(pgid) ? undefined : true), `group ${pgid} to die`);

function wchar(pid: number): number {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  return Number(/wchar:\s*(\d+)/.exec(io)?.[1]);
}

/** Waits until the child's write counter stops moving (it is blocked on its full pipe). */
async function blockedWrites(pid: number): Promise<number> {
  let last = -1;
  let stableSince = performance.now();
  return waitFor(() => {
    const now = wchar(pid);
    if (now !== last) {
      last = now;
      stableSince = performance.now();
      return undefined;
    }
    return performance.now() - stableSince > 300 ? now : undefined;
  }, 'the child to block on its pipe');
}

/**
 * What the kernel says `pid` sleeps in ('0' when hidden). A child blocked writing its full stdout
 * sleeps in `sock_alloc_send_pskb` (libuv gives children a socketpair) or `pipe_write` (a pipe).
 */
function wchan(pid: number): string {
  return readFileSync(`/proc/${pid}/wchan`, 'utf8').trim();
}

const BLOCKED_WRITE = /sock_alloc_send|pipe_write/;
const BLOCKED_WRITE_OR_HIDDEN = /sock_alloc_send|pipe_write|^0$/;

/** Waits until the child is blocked writing its full pipe; returns its write counter then. */
async function blockedOnPipe(pid: number): Promise<number> {
  const written = await blockedWrites(pid);
  if (wchan(pid) === '0') return written; // the kernel hides wchan here: a stable counter has to do
  await waitFor(() => (BLOCKED_WRITE.test(wchan(pid)) ? true : undefined), 'the child to block in a write');
  return wchar(pid);
}

describe.skipIf(!needs('linux', 'ps', 'python3'))(
  'streaming exec through host + bridge (real processes)',
  () => {
    it('break after 20 chunks kills the whole group (the child and its grandchild)', async () => {
      const host = createHost({ logger: { warn: () => {} } });
      const { api } = connectExtension(host, 'ext-a');
      const file = pidFile();
      const stream = api.exec('python3', ['-c', WRITER, file, '-1', 'grandchild'], {
        stream: true,
        bufferSize: 16,
        stallTimeoutMs: 0,
      });
      let read = 0;
      for await (const chunk of stream) {
        expect(chunk).toBe(line(read));
        read += 1;
        if (read === 20) break;
      }
      expect(read).toBe(20);
      const pid = await readPid(file);
      await waitGone(pid);
      expect(host.activeStreams()).toEqual([]);
    });

    it('measures the lead of a blocked child while the stream is idle', async () => {
      const host = createHost({ logger: { warn: () => {} } });
      const { api } = connectExtension(host, 'ext-a');
      const file = pidFile();
      const stream = api.exec('python3', ['-c', WRITER, file, '-1'], {
        stream: true,
        bufferSize: 16,
        stallTimeoutMs: 0,
      });
      const iterator = stream[Symbol.asyncIterator]();
      for (let i = 0; i < 10; i += 1) expect((await iterator.next()).value).toBe(line(i));
      const pid = await readPid(file);
      const written = Math.floor((await blockedWrites(pid)) / LINE_BYTES);
      const hostSide = host.stream('ext-a', stream.callId);
      expect(hostSide?.paused).toBe(true);
      expect((hostSide?.channelled ?? 0) + (hostSide?.queued ?? 0)).toBeGreaterThanOrEqual(16);
      const lead = written - 10;
      // 16 in the channel + what one read split into lines (≤ 64 KiB) + the pipe (64 KiB) + stream buffers (64 KiB).
      expect(lead).toBeGreaterThan(16);
      expect(lead * LINE_BYTES).toBeLessThan(16 * LINE_BYTES + 3 * 65_536);
      // Consuming again resumes the child: the next lines come in order.
      for (let i = 10; i < 30; i += 1) expect((await iterator.next()).value).toBe(line(i));
      await iterator.return?.();
      await waitGone(pid);
    });

    it('the lines of one read wait in the channel, counted, with no overflow: 70 000 empty lines, every one once', async () => {
      const host = createHost({ logger: { warn: () => {} } });
      const { api } = connectExtension(host, 'ext-a');
      // One write of 70 000 one-byte lines: a pipe read holds up to 65 536 of them, far past the
      // capacity of 16, and together they pass the overflow limit (65 536) if taken for ignored demand.
      const stream = api.exec('python3', ['-c', 'import sys\nsys.stdout.write("\\n" * 70000)'], {
        stream: true,
        bufferSize: 16,
        stallTimeoutMs: 0,
      });
      const iterator = stream[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toBe('\n');
      const hostSide = host.stream('ext-a', stream.callId);
      // exec pushed the rest of its read into the channel, where it counts (docs/protocol.md, "Capacity").
      expect(hostSide?.paused).toBe(true);
      expect((hostSide?.channelled ?? 0) + (hostSide?.queued ?? 0)).toBeGreaterThan(16);
      expect(1 + (await countToExit(iterator, '\n'))).toBe(70_000);
      expect(host.activeStreams()).toEqual([]);
    });

    it('a consumer that keeps pulling through a read held in the channel is not stalled', async () => {
      const warnings: string[] = [];
      const host = createHost({ logger: { warn: (message) => warnings.push(message) } });
      const { api } = connectExtension(host, 'ext-a');
      // One read of thousands of lines stays in the channel, over capacity, for as long as the
      // consumer takes them: 300 lines, one every 8 ms, is more than twice the stall timeout. (The
      // timeout is generous next to the pace: a loaded machine may hold one pull for hundreds of ms.)
      const stream = api.exec('python3', ['-c', 'import sys\nsys.stdout.write("x\\n" * 30000)'], {
        stream: true,
        bufferSize: 16,
        stallTimeoutMs: 1000,
      });
      const iterator = stream[Symbol.asyncIterator]();
      for (let i = 0; i < 300; i += 1) {
        expect((await iterator.next()).value).toBe('x\n');
        await new Promise((resolve) => setTimeout(resolve, 8));
      }
      expect(300 + (await countToExit(iterator, 'x\n'))).toBe(30_000);
      expect(warnings).toEqual([]);
    });

    it('stallTimeoutMs: 200 kills the blocked child, delivers the null final chunk and logs the warning', async () => {
      const warnings: string[] = [];
      const host = createHost({ logger: { warn: (message) => warnings.push(message) } });
      const { api } = connectExtension(host, 'ext-a');
      const file = pidFile();
      const stream = api.exec('python3', ['-c', WRITER, file, '-1', 'grandchild'], {
        stream: true,
        bufferSize: 8,
        stallTimeoutMs: 200,
      });
      const iterator = stream[Symbol.asyncIterator]();
      for (let i = 0; i < 3; i += 1) expect((await iterator.next()).value).toBe(line(i));
      const pid = await readPid(file);
      await waitFor(() => (warnings.length > 0 ? true : undefined), 'the stall warning');
      expect(warnings).toEqual(['Stream stalled: JS consumer did not pull for 0.2s']);
      await waitGone(pid);
      await drainRest(iterator, 3, 8);
      expect(host.activeStreams()).toEqual([]);
    });

    it('cancelStream kills the group; the iterator ends after the chunks already queued', async () => {
      const host = createHost({ logger: { warn: () => {} } });
      const { api, bridge } = connectExtension(host, 'ext-a');
      const file = pidFile();
      const stream = api.exec('python3', ['-c', WRITER, file, '-1', 'grandchild'], { stream: true });
      const iterator = stream[Symbol.asyncIterator]();
      for (let i = 0; i < 2; i += 1) expect((await iterator.next()).value).toBe(line(i));
      const pid = await readPid(file);
      api.cancelStream(stream.callId);
      await waitGone(pid);
      await drainRest(iterator, 2, 16);
      expect(bridge.pending()).toEqual([]);
      api.cancelStream(stream.callId); // finished: a no-op
      expect(host.activeStreams()).toEqual([]);
    });

    it("unloadExtension kills that extension's children and leaves the other extension's stream running", async () => {
      const host = createHost({ logger: { warn: () => {} } });
      const a = connectExtension(host, 'ext-a');
      const b = connectExtension(host, 'ext-b');
      const fileA = pidFile();
      const fileB = pidFile();
      const streamA = a.api.exec('python3', ['-c', WRITER, fileA, '-1', 'grandchild'], { stream: true });
      const streamB = b.api.exec('python3', ['-c', WRITER, fileB, '200'], { stream: true, bufferSize: 4 });
      const iterA = streamA[Symbol.asyncIterator]();
      const iterB = streamB[Symbol.asyncIterator]();
      expect((await iterA.next()).value).toBe(line(0));
      expect((await iterB.next()).value).toBe(line(0));
      const pidA = await readPid(fileA);
      host.unloadExtension('ext-a');
      await waitGone(pidA);
      await drainRest(iterA, 1, 16);
      const rest: unknown[] = [];
      for (let r = await iterB.next(); !r.done; r = await iterB.next()) rest.push(r.value);
      expect(rest.slice(0, 199)).toEqual(Array.from({ length: 199 }, (_, i) => line(i + 1)));
      expect(rest[199]).toMatchObject({ exitCode: 0, signal: null });
      expect(rest).toHaveLength(200);
    });

    it('one slow consumer never blocks another producer: B drains to its end while A stays paused, then A is unloaded', async () => {
      const host = createHost({ logger: { warn: () => {} } });
      const a = connectExtension(host, 'ext-a');
      const b = connectExtension(host, 'ext-b');
      const fileA = pidFile();
      const streamA = a.api.exec('python3', ['-c', WRITER, fileA, '-1', 'grandchild'], {
        stream: true,
        bufferSize: 4,
        stallTimeoutMs: 0,
      });
      const iterA = streamA[Symbol.asyncIterator]();
      expect((await iterA.next()).value).toBe(line(0));
      const pidA = await readPid(fileA);
      const writtenA = await blockedOnPipe(pidA);
      expect(host.stream('ext-a', streamA.callId)?.paused).toBe(true);
      // B writes far more than the pipe and read buffers hold: it can only finish if it is read.
      const count = 10_000;
      const streamB = b.api.exec('python3', ['-c', WRITER, pidFile(), String(count)], {
        stream: true,
        bufferSize: 16,
      });
      const values: unknown[] = [];
      for await (const value of streamB) values.push(value);
      expect(values).toHaveLength(count + 1);
      expect(values.slice(0, count)).toEqual(Array.from({ length: count }, (_, i) => line(i)));
      expect(values[count]).toMatchObject({ exitCode: 0, signal: null });
      // Meanwhile A did not move: its child wrote nothing more, its stream is still open and paused.
      expect(wchar(pidA)).toBe(writtenA);
      expect(wchan(pidA)).toMatch(BLOCKED_WRITE_OR_HIDDEN);
      expect(groupExists(pidA)).toBe(true);
      expect(host.stream('ext-a', streamA.callId)).toMatchObject({ paused: true, closed: false });
      expect(host.activeStreams()).toEqual([{ extensionId: 'ext-a', callId: streamA.callId }]);
      host.unloadExtension('ext-a');
      await waitGone(pidA);
      await drainRest(iterA, 1, 4);
      expect(host.activeStreams()).toEqual([]);
    });

    it('ten concurrent streams complete independently with contiguous sequences', async () => {
      const host = createHost({ logger: { warn: () => {} } });
      const { api } = connectExtension(host, 'ext-a');
      const counts = Array.from({ length: 10 }, (_, i) => 50 + i * 30);
      const runs = counts.map((count, i) => {
        const stream = api.exec('python3', ['-c', WRITER, pidFile(), String(count)], {
          stream: true,
          bufferSize: 2 + i,
        });
        return lastValueFrom(stream.pipe(toArray()));
      });
      const results = await Promise.all(runs);
      results.forEach((events, i) => {
        const count = counts[i] as number;
        expect(events.map((event) => event.sequence)).toEqual(Array.from({ length: count + 1 }, (_, n) => n));
        expect(events.slice(0, count).map((event) => event.content)).toEqual(
          Array.from({ length: count }, (_, n) => line(n)),
        );
        expect(events.filter((event) => event.isFinal)).toHaveLength(1);
        expect(events[count]).toMatchObject({ isFinal: true, content: { exitCode: 0 } });
      });
      expect(host.activeStreams()).toEqual([]);
    });

    it('property (small, real): random cancels leave exactly one final outcome per stream and no process', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              lines: fc.integer({ min: 0, max: 40 }),
              cancelAfter: fc.option(fc.integer({ min: 0, max: 30 })),
            }),
            {
              minLength: 1,
              maxLength: 4,
            },
          ),
          async (plans) => {
            const host = createHost({ logger: { warn: () => {} } });
            const seen = new Map<string, HostcallOutcome[]>();
            let bridge: ReturnType<typeof createBridge> | undefined;
            const connection = host.connect('ext-a', (task) => {
              seen.set(task.callId, [...(seen.get(task.callId) ?? []), task.outcome]);
              bridge?.completeHostcall(task.callId, task.outcome);
            });
            bridge = createBridge(connection);
            const api = createExtensionApi(bridge);
            const files = plans.map(() => pidFile());
            await Promise.all(
              plans.map(async (plan, i) => {
                const stream = api.exec('python3', ['-c', WRITER, files[i] as string, String(plan.lines)], {
                  stream: true,
                });
                let read = 0;
                for await (const _ of stream) {
                  read += 1;
                  if (plan.cancelAfter !== null && read > plan.cancelAfter) break;
                }
              }),
            );
            await waitFor(
              () => (host.activeStreams().length === 0 && host.scheduler.size === 0 ? true : undefined),
              'idle',
            );
            for (const outcomes of seen.values()) {
              expect(outcomes.map((o) => (o.type === 'streamChunk' ? o.sequence : -1))).toEqual(
                outcomes.map((_, n) => n),
              );
              expect(
                outcomes.filter((o) => o.type === 'error' || (o.type === 'streamChunk' && o.isFinal)),
              ).toHaveLength(1);
              expect(outcomes.at(-1)).toMatchObject({ type: 'streamChunk', isFinal: true });
            }
            expect(seen.size).toBe(plans.length);
            for (const file of files) await waitGone(await readPid(file));
          },
        ),
        { numRuns: 6 },
      );
    });
  },
);
