import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { exec } from '../src/index.js';

/** The `forceKillAfterMs` of the cancel benchmark of a group that ignores SIGTERM. */
export const CANCEL_FORCE_KILL_MS = 200;

/**
 * Whether any process of group `pgid` is still running: `process.kill(-pgid, 0)` succeeds and
 * `/proc` shows a member that is not a zombie. Zombies are dead; they only wait to be reaped, and
 * orphans are reaped by PID 1, which in some sandboxes does so only every second or two.
 */
function groupRunning(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue;
    }
    // `pid (comm) state ppid pgrp …`: parse after the last ')' (comm may hold spaces).
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 3);
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

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
