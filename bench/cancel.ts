import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { lastValueFrom } from 'rxjs';
import { type ContainmentOption, exec } from '../src/index.js';
import { cgroupSupport } from '../src/sources/exec/cgroup-support.js';
// Zombie-aware: a member that only waits to be reaped (orphans are reaped by PID 1, in some
// sandboxes only every second or two) counts as gone.
import { processGroupAlive } from '../src/sources/exec/process-group.js';

/** The `forceKillAfterMs` of the cancel benchmark of a group that ignores SIGTERM. */
export const CANCEL_FORCE_KILL_MS = 200;

/**
 * Starts `script` (which prints `pid <leader pid>` once its background child runs) with `exec`
 * under `containment`, unsubscribes, and measures the milliseconds until no process of the run
 * runs any more, polling every millisecond; `reps` times. Gone means: no live member of the
 * process group (`group`), the run's cgroup no longer populated (`cgroup`: it also holds the
 * children that left the group).
 *
 * @example
 * ```ts
 * const times = await measureCancel('bench/fixtures/group-term.sh', 5, 'cgroup');
 * ```
 */
export async function measureCancel(
  script: string,
  reps: number,
  containment: ContainmentOption = 'group',
): Promise<number[]> {
  const times: number[] = [];
  for (let rep = 0; rep < reps; rep++) {
    const { pgid, cancel } = await startRun(script, containment);
    const running =
      containment === 'cgroup' ? cgroupRunning(runCgroupOf(pgid)) : () => processGroupAlive(pgid);
    const started = performance.now();
    cancel();
    const deadline = started + CANCEL_FORCE_KILL_MS + 10_000;
    while (running()) {
      if (performance.now() > deadline) throw new Error(`the run of ${pgid} still running after cancel`);
      await sleep(1); // a 1 ms poll: scanning /proc in a tight loop would steal the CPU the group needs to exit
    }
    times.push(performance.now() - started);
  }
  return times;
}

/**
 * The cost of containment when a run starts: milliseconds from subscribe to the `exit` event of
 * `true` (spawn, exit, and with `cgroup` making, reading and removing the run's cgroup, and the
 * `/bin/sh` that joins it), after one warm-up run; `reps` times.
 *
 * @example
 * ```ts
 * const times = await measureSpawn(20, 'cgroup');
 * ```
 */
export async function measureSpawn(reps: number, containment: ContainmentOption): Promise<number[]> {
  const times: number[] = [];
  for (let rep = -1; rep < reps; rep++) {
    const started = performance.now();
    await lastValueFrom(exec('true', [], { containment }));
    if (rep >= 0) times.push(performance.now() - started);
  }
  return times;
}

function startRun(
  script: string,
  containment: ContainmentOption,
): Promise<{ pgid: number; cancel: () => void }> {
  return new Promise((resolve, reject) => {
    const subscription = exec('sh', [script], {
      forceKillAfterMs: CANCEL_FORCE_KILL_MS,
      containment,
    }).subscribe({
      next: (event) => {
        const match = event.kind === 'stdout' ? /^pid (\d+)/.exec(event.content) : null;
        if (match) resolve({ pgid: Number(match[1]), cancel: () => subscription.unsubscribe() });
      },
      error: reject,
      complete: () => reject(new Error(`${script} ended before it was ready`)),
    });
  });
}

/** The directory of the cgroup process `pid` is in: this process's own cgroup directory plus the part below it. */
function runCgroupOf(pid: number): string {
  const support = cgroupSupport();
  if (!('base' in support)) throw new Error(`no cgroup: ${support.unavailable}`);
  const path = (file: string) => /^0::(.*)$/m.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
  const own = path('/proc/self/cgroup');
  const run = path(`/proc/${pid}/cgroup`);
  return `${support.base}${run.slice(own === '/' ? 0 : own.length)}`;
}

function cgroupRunning(dir: string): () => boolean {
  return () => existsSync(dir) && readFileSync(`${dir}/cgroup.events`, 'latin1').includes('populated 1');
}
