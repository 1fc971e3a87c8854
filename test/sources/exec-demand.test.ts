import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
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
import { needs } from '../support/system-tools.js';

/** Polls until the child's written byte count did not move for `quietMs`. */
async function waitUntilBlocked(pid: number, quietMs: number, deadlineMs: number): Promise<boolean> {
  let last = writtenBytes(pid);
  let since = performance.now();
  return pollUntil(() => {
    const now = writtenBytes(pid);
    if (now !== last) {
      last = now;
      since = performance.now();
    }
    return performance.now() - since >= quietMs;
  }, deadlineMs);
}

describe.skipIf(!needs('linux', 'ps', 'python3'))('exec demand', () => {
  it('stops reading while paused (the child blocks on its pipe) and resumes with nothing lost', async () => {
    const valve = new Valve();
    const counter = fixture('exec-counter.py');
    const numbers: number[] = [];
    let receivedBytes = 0;
    let target = 1000;
    let reached = deferred<void>();
    const subscription = subscribeWithDemand(
      exec('python3', [counter]).pipe(map((event: ExecEvent) => event)),
      valve,
      {
        next: (event) => {
          if (event.kind !== 'stdout') return;
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
    await reached.promise;
    const pid = findChild(counter) as number;
    expect(pid).toBeGreaterThan(0);

    // Paused: the child must block (its write count stops growing), and no line may arrive.
    expect(await waitUntilBlocked(pid, 300, 15_000)).toBe(true);
    expect(numbers).toHaveLength(1000);
    const written = writtenBytes(pid);
    // What the child wrote beyond what we received sits in the OS pipe, one read and Python's
    // buffer: bounded, whatever the output size.
    expect(written - receivedBytes).toBeLessThan(1024 * 1024);

    // Resumed: lines flow again, numbered contiguously from 0.
    target = 50_000;
    reached = deferred<void>();
    valve.resume();
    await reached.promise;
    expect(writtenBytes(pid)).toBeGreaterThan(written);
    expect(numbers.every((value, index) => value === index)).toBe(true);

    subscription.unsubscribe();
    expect(await pollUntil(() => liveGroupMembers(pid).length === 0, 10_000)).toBe(true);
  });

  it('takes the demand from the demand option too, and holds back the exit event while paused', async () => {
    const valve = new Valve();
    valve.pause();
    const seen: string[] = [];
    let completed = false;
    const before = new Set(childPids());
    exec('sh', ['-c', 'echo a; echo b'], { demand: valve }).subscribe({
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
