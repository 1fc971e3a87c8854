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
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    const code = entry.charCodeAt(0);
    if (code < 48 || code > 57) continue;
    const stat = processStat(entry);
    if (stat !== undefined && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') return true;
  }
  return false;
}

/**
 * The state letter (`R`, `S`, `Z`, …) and process group of process `pid`, from `/proc/<pid>/stat`;
 * `undefined` when it is gone (or there is no `/proc`).
 *
 * @example
 * ```ts
 * processStat(process.pid); // { state: 'R', pgrp: 4242 }
 * ```
 */
export function processStat(pid: number | string): { state: string; pgrp: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // `pid (comm) state ppid pgrp …`: comm may contain spaces and parentheses, so parse after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 3);
  return { state: fields[0] ?? '', pgrp: Number(fields[2]) };
}
