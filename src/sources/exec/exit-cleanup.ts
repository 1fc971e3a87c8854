import { onExit } from 'signal-exit';
import { killProcessGroup } from './process-group.js';

const live = new Set<number>();
const liveCgroups = new Set<() => void>();
let stopListening: (() => void) | undefined;

function killAll(): void {
  for (const pgid of live) {
    try {
      killProcessGroup(pgid, 'SIGKILL');
    } catch {
      // nothing more can be done while exiting
    }
  }
  for (const end of liveCgroups) {
    try {
      end();
    } catch {
      // nothing more can be done while exiting
    }
  }
  live.clear();
  liveCgroups.clear();
  stopListening = undefined;
}

function stopIfIdle(): void {
  if (live.size > 0 || liveCgroups.size > 0) return;
  const stop = stopListening;
  stopListening = undefined;
  stop?.();
}

/**
 * Remembers a process group sluice started, so that it is `SIGKILL`ed if this Node process ends
 * while the group may still be alive: on `exit` (the loop ran dry, `process.exit()`, an uncaught
 * exception) and on a fatal signal (`SIGINT`, `SIGTERM`, `SIGHUP`, `SIGQUIT`, …). Sluice starts
 * every child as the leader of its own group, so a terminal's Ctrl-C does not reach it: without
 * this, a dying script would leave its children running under PID 1.
 *
 * The hooks are `signal-exit`'s, installed while at least one group is remembered and removed
 * with the last one. On a signal they run only when the app installed no handler of its own for
 * it, and then re-raise the signal, so the process still dies of it (a shell sees 130 after
 * Ctrl-C); an app that handles the signal itself decides when to exit, and the `exit` hook runs
 * then. `SIGKILL`, which nobody can catch, is the one death that leaves the groups behind (a
 * terminal run has a watcher of its own for it: `Lifeline` in tty-session.ts).
 *
 * Call {@link untrackProcessGroup} once the group is known to be gone.
 *
 * @example
 * ```ts
 * trackProcessGroup(child.pid);
 * ```
 */
export function trackProcessGroup(pgid: number): void {
  live.add(pgid);
  stopListening ??= onExit(killAll);
}

/**
 * Forgets a group remembered by {@link trackProcessGroup}; with the last one, the exit and signal
 * hooks are removed.
 *
 * @example
 * ```ts
 * untrackProcessGroup(child.pid);
 * ```
 */
export function untrackProcessGroup(pgid: number): void {
  if (live.delete(pgid)) stopIfIdle();
}

/**
 * Like {@link trackProcessGroup}, for a run contained by cgroup: `end` (which must be synchronous:
 * `cgroup.kill`, then removing the cgroup once it is empty) runs if this Node process ends while
 * the run's cgroup may still hold a process. Call {@link untrackCgroup} with the same `end` once
 * the cgroup is gone.
 *
 * @example
 * ```ts
 * const end = () => run.killAndRemove();
 * trackCgroup(end);
 * ```
 */
export function trackCgroup(end: () => void): void {
  liveCgroups.add(end);
  stopListening ??= onExit(killAll);
}

/**
 * Forgets a cgroup remembered by {@link trackCgroup}.
 *
 * @example
 * ```ts
 * untrackCgroup(end);
 * ```
 */
export function untrackCgroup(end: () => void): void {
  if (liveCgroups.delete(end)) stopIfIdle();
}
