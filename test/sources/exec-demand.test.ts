import { randomUUID } from 'node:crypto';
import { map } from 'rxjs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { deferred } from '../../src/core/deferred.js';
import { type ExecEvent, exec, subscribeWithDemand, Valve } from '../../src/index.js';
import {
  childPids,
  findChild,
  fixture,
  liveGroupMembers,
  pollUntil,
  processGone,
  writtenBytes,
} from '../support/processes.js';
import { containments, needs } from '../support/system-tools.js';

/**
 * How far a paused child may get ahead of what was delivered: the OS pipe, one read and Python's
 * buffer, whatever the output size. A pipe that is still read while paused passes it at once.
 */
const LEAD_BOUND = 1024 * 1024;

/**
 * Polls until the child's written byte count did not move for `quietMs` (it blocks on its full
 * pipe): `true`, or `false` as soon as it ran more than {@link LEAD_BOUND} bytes ahead of
 * `delivered()` (nothing holds it back), or when `deadlineMs` passes.
 */
async function waitUntilBlocked(pid: number, delivered: () => number, quietMs: number, deadlineMs: number) {
  let last = writtenBytes(pid);
  let since = performance.now();
  let ranAhead = false;
  const settled = await pollUntil(() => {
    const now = writtenBytes(pid);
    if (now - delivered() > LEAD_BOUND) ranAhead = true;
    if (now !== last) {
      last = now;
      since = performance.now();
    }
    return ranAhead || performance.now() - since >= quietMs;
  }, deadlineMs);
  return settled && !ranAhead;
}

describe
  .skipIf(!needs('linux', 'ps', 'python3'))
  .each(
    containments().flatMap((containment) =>
      (['stdout', 'stderr'] as const).map((stream) => ({ containment, stream })),
    ),
  )('exec demand (containment $containment, $stream)', ({ containment, stream }) => {
  it('stops reading while paused (the child blocks on its pipe) and resumes with nothing lost', async () => {
    const valve = new Valve();
    const counter = fixture('exec-counter.py');
    const tag = `exec-demand-${randomUUID()}`;
    const numbers: number[] = [];
    let receivedBytes = 0;
    let target = 1000;
    let reached = deferred<void>();
    const subscription = subscribeWithDemand(
      exec('python3', [counter, tag], { containment, env: { COUNTER_STREAM: stream } }).pipe(
        map((event: ExecEvent) => event),
      ),
      valve,
      {
        next: (event) => {
          if (event.kind !== stream) return;
          numbers.push(Number(event.content.slice(0, 10)));
          receivedBytes += event.content.length;
          if (numbers.length === target) {
            valve.pause();
            reached.resolve();
          }
        },
        error: () => {},
      },
    );
    onTestFinished(() => subscription.unsubscribe());
    await reached.promise;
    const pid = findChild(tag) as number;
    expect(pid).toBeGreaterThan(0);

    // Paused: the child must block (its write count stops growing), and no line may arrive.
    expect(await waitUntilBlocked(pid, () => receivedBytes, 300, 15_000)).toBe(true);
    expect(numbers).toHaveLength(1000);
    const written = writtenBytes(pid);
    expect(written - receivedBytes).toBeLessThan(LEAD_BOUND);

    // Resumed: lines flow again, numbered contiguously from 0.
    target = 10_000;
    reached = deferred<void>();
    valve.resume();
    await reached.promise;
    expect(writtenBytes(pid)).toBeGreaterThan(written);
    expect(numbers.every((value, index) => value === index)).toBe(true);

    subscription.unsubscribe();
    expect(await pollUntil(() => liveGroupMembers(pid).length === 0, 10_000)).toBe(true);
  });
});

describe.skipIf(!needs('linux', 'ps')).each(containments())('exec demand (containment %s)', (containment) => {
  it('takes the demand from the demand option too, and holds back the exit event while paused', async () => {
    const valve = new Valve();
    valve.pause();
    const seen: string[] = [];
    let completed = false;
    const before = new Set(childPids());
    exec('sh', ['-c', 'echo a; echo b'], { containment, demand: valve }).subscribe({
      next: (event) => {
        seen.push(event.kind === 'exit' ? 'exit' : event.content);
      },
      complete: () => {
        completed = true;
      },
    });
    // The child is spawned synchronously on subscribe, and exits at once whatever we do: its 4 bytes
    // fit in the pipe. Once it is reaped (Node saw its exit), nothing may have been emitted yet.
    const pid = childPids().find((candidate) => !before.has(candidate)) as number;
    expect(pid).toBeGreaterThan(0);
    expect(await pollUntil(() => processGone(pid), 10_000)).toBe(true);
    expect(seen).toEqual([]);
    valve.resume();
    expect(await pollUntil(() => completed, 10_000)).toBe(true);
    expect(seen).toEqual(['a\n', 'b\n', 'exit']);
  });
});
