import { readdirSync, readFileSync } from 'node:fs';

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
