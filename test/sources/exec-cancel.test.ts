import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom, type Observable, Subject } from 'rxjs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type ExecEvent, type ExecExitEvent, type ExecOptions, exec } from '../../src/index.js';
import {
  findChild,
  fixture,
  groupGone,
  liveGroupMembers,
  pollUntil,
  processAlive,
  processGone,
} from '../support/processes.js';
import { containments, needs } from '../support/system-tools.js';

/** Subscribes, waits for the line `ready\n`, and returns the lines seen so far and the subscription. */
async function startUntilReady(source: Observable<ExecEvent>) {
  const lines: string[] = [];
  const ready = new Subject<void>();
  const readyOnce = firstValueFrom(ready);
  const outcome: { error?: unknown; completed: boolean } = { completed: false };
  const subscription = source.subscribe({
    next: (event) => {
      if (event.kind === 'exit') return;
      lines.push(event.content);
      if (event.content === 'ready\n') ready.next();
    },
    error: (error: unknown) => {
      outcome.error = error;
    },
    complete: () => {
      outcome.completed = true;
    },
  });
  await readyOnce;
  return { lines, subscription, outcome };
}

/**
 * Long enough that only `killSignal` can end a group within a test's deadline: neither the
 * `SIGKILL` nor a cgroup's `cgroup.kill` comes to the rescue of a kill that missed a member.
 */
const NO_FORCE_KILL = { forceKillAfterMs: 60_000 };
/** How long a group that got `killSignal` may take to die: generous, for a loaded machine. */
const SIGNAL_DEADLINE_MS = 5_000;

describe.skipIf(!needs('linux', 'ps')).each(containments())('exec cancel (containment %s)', (containment) => {
  it('signals the whole process group on unsubscribe (sh -c "sleep 300 & sleep 300"), not only its leader', async () => {
    let pid: number | undefined;
    const subscription = exec('sh', ['-c', 'sleep 300 & sleep 300'], {
      containment,
      ...NO_FORCE_KILL,
    }).subscribe({
      error: () => {},
    });
    // The leader's pid is the group id: find our child by its command line.
    await pollUntil(() => {
      const found = findChildGroup('sleep 300 & sleep 300');
      pid = found;
      return found !== undefined && liveGroupMembers(found).length >= 2;
    }, 10_000);
    expect(pid).toBeDefined();
    const pgid = pid as number;
    killGroupWhenDone(pgid);
    expect(liveGroupMembers(pgid).length).toBeGreaterThanOrEqual(2);
    subscription.unsubscribe();
    expect(await pollUntil(() => liveGroupMembers(pgid).length === 0, SIGNAL_DEADLINE_MS)).toBe(true);
  });

  it('kills the background child too, and emits nothing after unsubscribe', async () => {
    const source = exec('sh', [fixture('exec-group.sh')], { containment, ...NO_FORCE_KILL });
    const { lines, subscription, outcome } = await startUntilReady(source);
    const childPid = Number(/child (\d+)/.exec(lines.join(''))?.[1]);
    killGroupWhenDone(findChildGroup(fixture('exec-group.sh')) as number);
    expect(processAlive(childPid)).toBe(true);
    subscription.unsubscribe();
    expect(await pollUntil(() => !processAlive(childPid), SIGNAL_DEADLINE_MS)).toBe(true);
    expect(outcome).toEqual({ completed: false });
  });

  it('SIGKILLs a group that ignores SIGTERM once forceKillAfterMs passes', async () => {
    const source = exec('sh', [fixture('exec-ignore-term.sh')], { containment, forceKillAfterMs: 1000 });
    const { subscription } = await startUntilReady(source);
    const pgid = findChildGroup(fixture('exec-ignore-term.sh')) as number;
    expect(pgid).toBeDefined();
    killGroupWhenDone(pgid);
    const members = liveGroupMembers(pgid);
    expect(members.length).toBeGreaterThanOrEqual(2);
    const killedAt = performance.now();
    subscription.unsubscribe();
    // SIGTERM is ignored: the group goes only with the SIGKILL, forceKillAfterMs later.
    expect(await pollUntil(() => liveGroupMembers(pgid).length === 0, 10_000)).toBe(true);
    expect(performance.now() - killedAt).toBeGreaterThanOrEqual(900);
  });

  it('does not wait on the leader alone: a member that ignores SIGTERM is SIGKILLed after the leader died', async () => {
    // The leader (sh) and its foreground sleep die on SIGTERM; the background sleep ignores it.
    const source = exec('sh', ['-c', `(trap '' TERM; exec sleep 300) & echo "$$ $!"; sleep 300`], {
      containment,
      forceKillAfterMs: 500,
    });
    const pids = new Subject<string>();
    const firstLine = firstValueFrom(pids);
    const subscription = source.subscribe({
      next: (event) => pids.next(String(event.content)),
      error: () => {},
    });
    const [leader, member] = (await firstLine).trim().split(' ').map(Number) as [number, number];
    killGroupWhenDone(leader);
    expect(await pollUntil(() => liveGroupMembers(leader).includes(member), 10_000)).toBe(true);
    const killedAt = performance.now();
    subscription.unsubscribe();
    // The leader is gone at once (Node reaps it)…
    expect(await pollUntil(() => processGone(leader), 10_000)).toBe(true);
    const leaderGoneAfter = performance.now() - killedAt;
    // …the member survived the SIGTERM…
    expect(processAlive(member) || leaderGoneAfter >= 450).toBe(true);
    // …and the whole group is gone only after the SIGKILL, forceKillAfterMs later.
    expect(await groupGone(leader, 10_000)).toBe(true);
    expect(liveGroupMembers(leader)).toEqual([]);
    expect(performance.now() - killedAt).toBeGreaterThanOrEqual(450);
  });

  it.skipIf(!needs('python3')).each([
    ['SIGINT', { killSignal: 'SIGINT' }],
    ['SIGHUP', { killSignal: 'SIGHUP' }],
    ['SIGTERM', {}],
  ] as const)('sends %s (killSignal) to the group on unsubscribe', async (expected, options: ExecOptions) => {
    const report = join(mkdtempSync(join(tmpdir(), 'sluice-kill-signal-')), 'signal');
    const source = exec('python3', [fixture('exec-report-signal.py'), report], { containment, ...options });
    const { subscription, outcome } = await startUntilReady(source);
    const pgid = findChildGroup(report) as number;
    expect(pgid).toBeDefined();
    killGroupWhenDone(pgid);
    subscription.unsubscribe();
    expect(await pollUntil(() => existsSync(report), 10_000)).toBe(true);
    expect(readFileSync(report, 'utf8')).toBe(expected);
    expect(await groupGone(pgid, 10_000)).toBe(true);
    expect(outcome).toEqual({ completed: false });
  });

  it('escalates to SIGKILL on timeout too, and reports the signal', async () => {
    const source = exec('sh', [fixture('exec-ignore-term.sh')], {
      containment,
      timeoutMs: 200,
      forceKillAfterMs: 200,
      reject: false,
    });
    const exit = (await lastExit(source)) as ExecExitEvent;
    expect(exit.content).toMatchObject({ timedOut: true, signal: 'SIGKILL', stdout: 'ready\n' });
    expect(liveGroupMembers(exit.content.pid as number)).toEqual([]);
  });

  it('kills a background child that keeps the pipes open after the leader exited', async () => {
    const started = performance.now();
    const exit = (await lastExit(
      exec('sh', ['-c', 'sleep 300 & echo "child $!"'], {
        containment,
        forceKillAfterMs: 200,
        reject: false,
      }),
    )) as ExecExitEvent;
    expect(exit.content).toMatchObject({ exitCode: 0, signal: null, timedOut: false, containment });
    const childPid = Number(/child (\d+)/.exec(exit.content.stdout)?.[1]);
    expect(await pollUntil(() => !processAlive(childPid), 10_000)).toBe(true);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('kills members left in the group when the run ends', async () => {
    const exit = (await lastExit(
      exec('sh', ['-c', 'sleep 300 >/dev/null 2>&1 & echo "child $!"'], { containment, reject: false }),
    )) as ExecExitEvent;
    const childPid = Number(/child (\d+)/.exec(exit.content.stdout)?.[1]);
    expect(await pollUntil(() => !processAlive(childPid), 10_000)).toBe(true);
  });
});

function lastExit(source: Observable<ExecEvent>): Promise<ExecEvent | undefined> {
  return new Promise((resolve, reject) => {
    let last: ExecEvent | undefined;
    source.subscribe({ next: (event) => (last = event), error: reject, complete: () => resolve(last) });
  });
}

/** SIGKILLs group `pgid` when the test ends, passed or not: a kill under test that missed a member must not leave it. */
function killGroupWhenDone(pgid: number): void {
  onTestFinished(() => {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Gone, as it should be.
    }
  });
}

/** The pgid of the child of this process whose command line contains `text` (it leads its group). */
const findChildGroup = findChild;
