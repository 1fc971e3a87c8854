import { readdirSync, readFileSync } from 'node:fs';
import { onExit } from 'signal-exit';

/** Sends `signal` to every process of group `pgid`. Returns `false` if the group no longer exists. */
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
 * Whether any process of group `pgid` is alive. `kill(-pgid, 0)` also succeeds on zombies, which
 * linger where PID 1 does not reap orphans (many containers): so `/proc` is scanned for a member
 * that is not one (without `/proc`, existence is the answer).
 */
export function processGroupAlive(pgid: number): boolean {
  if (!killProcessGroup(pgid, 0)) return false;
  const members = liveProcesses((stat) => stat.pgrp === pgid, true);
  return members === undefined || members.length > 0;
}

/**
 * The pids of the processes (zombies excluded) whose `/proc/<pid>/stat` passes `test` — only the
 * first one found with `first`; `undefined` on systems without `/proc`.
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

/** What {@link processStat} reads of a process (`state`: `R`, `S`, `Z`, …). */
export interface ProcessStat {
  readonly state: string;
  readonly ppid: number;
  readonly pgrp: number;
  readonly session: number;
}

/**
 * The state letter, parent, process group and session of process `pid`, from `/proc/<pid>/stat`;
 * `undefined` when it is gone (or there is no `/proc`).
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

/**
 * Sends `signal` to each of `pids`, one by one; a process gone since it was listed is skipped.
 * For the members that left their group (a terminal's session, a cgroup's `setsid` daemons).
 */
export function signalEach(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone since it was listed.
    }
  }
}

/** What dies with this process: a process group by its id, or a run's synchronous kill (its cgroup's, its terminal session's). */
type ExitTarget = number | (() => void);

const atExit = new Set<ExitTarget>();
let stopListening: (() => void) | undefined;

function killAll(): void {
  // The runs' own kills first: a terminal session not yet known is found through `script`, which
  // must still be alive then (tty.ts).
  const targets = [...atExit].sort((a, b) => Number(typeof a === 'number') - Number(typeof b === 'number'));
  for (const target of targets) {
    try {
      if (typeof target === 'number') killProcessGroup(target, 'SIGKILL');
      else target();
    } catch {
      // nothing more can be done while exiting
    }
  }
  atExit.clear();
  stopListening = undefined;
}

/**
 * Remembers what sluice started, so that it is killed if this Node process ends while it may
 * still be alive: a process group (`SIGKILL`), or a run's own synchronous kill (its cgroup's).
 * Every child leads its own group, so a terminal's Ctrl-C does not reach it: without this, a
 * dying script would leave its children running under PID 1.
 *
 * The hooks are `signal-exit`'s (on `exit` and on a fatal signal the app does not handle itself,
 * which they re-raise), installed while something is remembered. `SIGKILL` is the one death that
 * leaves the groups behind (a terminal run has its own watcher for it: `Lifeline` in tty.ts).
 */
export function killAtExit(target: ExitTarget): void {
  atExit.add(target);
  stopListening ??= onExit(killAll);
}

/** Forgets what {@link killAtExit} remembered, once it is gone; with the last one, the hooks are removed. */
export function forgetAtExit(target: ExitTarget): void {
  if (!atExit.delete(target) || atExit.size > 0) return;
  const stop = stopListening;
  stopListening = undefined;
  stop?.();
}
