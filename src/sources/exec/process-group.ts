import { readdirSync, readFileSync } from 'node:fs';
import { onExit } from 'signal-exit';

/**
 * Sends `signal` to every process of group `pgid`. Returns `false` if the group no longer exists.
 *
 * @example
 * ```ts
 * killProcessGroup(child.pid, 'SIGTERM');
 * ```
 */
export function killProcessGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/**
 * Whether any process of group `pgid` is alive. `kill(-pgid, 0)` alone is not enough: it also
 * succeeds on zombies, and where PID 1 does not reap orphans (many containers) the killed members
 * of a group linger as zombies forever. So when the group exists, `/proc` is scanned for a member
 * that is not a zombie (on systems without `/proc`, existence is the answer).
 *
 * @example
 * ```ts
 * if (processGroupAlive(pid)) killProcessGroup(pid, 'SIGKILL');
 * ```
 */
export function processGroupAlive(pgid: number): boolean {
  if (!killProcessGroup(pgid, 0)) return false;
  const members = liveProcesses((stat) => stat.pgrp === pgid, true);
  return members === undefined || members.length > 0;
}

/**
 * The pids of the processes (zombies excluded) whose `/proc/<pid>/stat` passes `test` — only the
 * first one found with `first`; `undefined` on systems without `/proc`.
 *
 * @example
 * ```ts
 * liveProcesses((stat) => stat.session === sid); // [4242, 4250]
 * ```
 */
export function liveProcesses(test: (stat: ProcessStat) => boolean, first = false): number[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const found: number[] = [];
  for (const entry of entries) {
    const code = entry.charCodeAt(0);
    if (code < 48 || code > 57) continue;
    const stat = processStat(entry);
    if (stat === undefined || stat.state === 'Z' || stat.state === 'X' || !test(stat)) continue;
    found.push(Number(entry));
    if (first) break;
  }
  return found;
}

/** What {@link processStat} reads of a process. */
export interface ProcessStat {
  /** `R`, `S`, `Z`, … */
  readonly state: string;
  readonly ppid: number;
  readonly pgrp: number;
  readonly session: number;
}

/**
 * The state letter, parent, process group and session of process `pid`, from `/proc/<pid>/stat`;
 * `undefined` when it is gone (or there is no `/proc`).
 *
 * @example
 * ```ts
 * processStat(process.pid); // { state: 'R', ppid: 4200, pgrp: 4242, session: 4100 }
 * ```
 */
export function processStat(pid: number | string): ProcessStat | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // `pid (comm) state ppid pgrp …`: comm may contain spaces and parentheses, so parse after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 4);
  return {
    state: fields[0] ?? '',
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    session: Number(fields[3]),
  };
}

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
 * terminal run has a watcher of its own for it: `Lifeline` in tty.ts).
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
