import { setTimeout as sleep } from 'node:timers/promises';
import { exec } from '../src/index.js';
// Zombie-aware: a member that only waits to be reaped (orphans are reaped by PID 1, in some
// sandboxes only every second or two) counts as gone.
import { processGroupAlive as groupRunning } from '../src/sources/exec/process-group.js';

/** The `forceKillAfterMs` of the cancel benchmark of a group that ignores SIGTERM. */
export const CANCEL_FORCE_KILL_MS = 200;

/**
 * Starts `script` (which prints `pid <leader pid>` once its background child runs) with `exec`,
 * unsubscribes, and measures the milliseconds until no process of the group runs any more,
 * polling every millisecond; `reps` times.
 *
 * @example
 * ```ts
 * const times = await measureCancel('bench/fixtures/group-term.sh', 5);
 * ```
 */
export async function measureCancel(script: string, reps: number): Promise<number[]> {
  const times: number[] = [];
  for (let rep = 0; rep < reps; rep++) {
    const { pgid, cancel } = await startGroup(script);
    const started = performance.now();
    cancel();
    const deadline = started + CANCEL_FORCE_KILL_MS + 10_000;
    while (groupRunning(pgid)) {
      if (performance.now() > deadline) throw new Error(`process group ${pgid} still running after cancel`);
      await sleep(1); // a 1 ms poll: scanning /proc in a tight loop would steal the CPU the group needs to exit
    }
    times.push(performance.now() - started);
  }
  return times;
}

function startGroup(script: string): Promise<{ pgid: number; cancel: () => void }> {
  return new Promise((resolve, reject) => {
    const subscription = exec('sh', [script], { forceKillAfterMs: CANCEL_FORCE_KILL_MS }).subscribe({
      next: (event) => {
        const match = event.kind === 'stdout' ? /^pid (\d+)/.exec(event.content) : null;
        if (match) resolve({ pgid: Number(match[1]), cancel: () => subscription.unsubscribe() });
      },
      error: reject,
      complete: () => reject(new Error(`${script} ended before it was ready`)),
    });
  });
}
