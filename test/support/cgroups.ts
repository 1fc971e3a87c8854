import { readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { cgroupSupport } from '../../src/sources/exec/cgroup-support.js';
import { processAlive } from './processes.js';

/** The cgroup under which this machine's runs get theirs (see src/sources/exec/cgroup-support.ts), or `undefined`. */
export function cgroupBase(): string | undefined {
  const support = cgroupSupport();
  return 'base' in support ? support.base : undefined;
}

/**
 * The `sluice-<pid>-…` cgroups (and their runs' cgroups) under the base, whoever made them.
 */
function sluiceCgroupsNamedFor(pid: number): string[] {
  const base = cgroupBase();
  if (base === undefined) return [];
  const found: string[] = [];
  for (const entry of readdirSync(base)) {
    if (!entry.startsWith(`sluice-${pid}-`)) continue;
    found.push(`${base}/${entry}`);
    try {
      for (const run of readdirSync(`${base}/${entry}`, { withFileTypes: true })) {
        if (run.isDirectory()) found.push(`${base}/${entry}/${run.name}`);
      }
    } catch {
      // removed meanwhile
    }
  }
  return found;
}

/** What carries this process's pid before it could make any cgroup: another, dead process's. */
const leftBeforeThisProcess = sluiceCgroupsBefore(process.pid);

/**
 * The cgroups sluice made for the runs of process `pid` (this test process by default): its own
 * `sluice-<pid>-<random>` under the base and the runs' cgroups in it. Only these are a test's to
 * check: other processes' sluice cgroups belong to other tests.
 *
 * A process killed by `SIGKILL` leaves its cgroups behind (docs/containment.md), and pids are
 * reused, so a cgroup named for a pid may be a dead process's. `left` names those to leave out:
 * for this process, what carried its pid when this module loaded; for another, take
 * {@link sluiceCgroupsBefore} right after spawning it, before it can have made any.
 */
export function sluiceCgroupsOf(): string[];
export function sluiceCgroupsOf(pid: number, left: ReadonlySet<string>): string[];
export function sluiceCgroupsOf(
  pid: number = process.pid,
  left: ReadonlySet<string> = leftBeforeThisProcess,
): string[] {
  return sluiceCgroupsNamedFor(pid).filter((path) => !left.has(path));
}

/**
 * The cgroups named for process `pid` now: take it right after spawning the process (which needs
 * far longer to start than this takes) and hand it to {@link sluiceCgroupsOf} as `left`.
 *
 * @example
 * ```ts
 * const child = execa(process.execPath, [script]);
 * const left = sluiceCgroupsBefore(child.pid);
 * // … later
 * expect(sluiceCgroupsOf(child.pid, left)).toEqual([]);
 * ```
 */
export function sluiceCgroupsBefore(pid: number): ReadonlySet<string> {
  return new Set(sluiceCgroupsNamedFor(pid));
}

/** The cgroup v2 path of process `pid` (its `0::` line), or `undefined` once it is gone. */
export function cgroupOf(pid: number): string | undefined {
  try {
    return /^0::(.*)$/m.exec(readFileSync(`/proc/${pid}/cgroup`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

/** The controllers this machine hands down to the runs of this process (its cgroup's `cgroup.subtree_control`). */
export function enabledControllers(): string[] {
  const base = cgroupBase();
  if (base === undefined) return [];
  try {
    const text = readFileSync(`${base}/cgroup.subtree_control`, 'utf8').trim();
    return text === '' ? [] : text.split(/\s+/);
  } catch {
    return [];
  }
}

/**
 * Removes the empty `sluice-<pid>-…` cgroups (and their empty runs' cgroups) of processes no longer
 * alive, and returns them: what the tests that kill a sluice process with `SIGKILL` leave behind
 * by design (docs/containment.md), a probe's cgroup included. A cgroup that still holds a process
 * is left (its `rmdir` fails).
 */
export function removeCgroupsOfDeadProcesses(): string[] {
  const base = cgroupBase();
  if (base === undefined) return [];
  const removed: string[] = [];
  for (const entry of readdirSync(base)) {
    const owner = /^sluice-(\d+)-/.exec(entry)?.[1];
    if (owner === undefined || processAlive(Number(owner))) continue;
    const path = `${base}/${entry}`;
    try {
      for (const run of readdirSync(path, { withFileTypes: true })) {
        if (run.isDirectory()) rmdirSync(`${path}/${run.name}`);
      }
      rmdirSync(path);
      removed.push(path);
    } catch {
      // Still populated, or removed meanwhile.
    }
  }
  return removed;
}

/** A limit of `exec`'s `limits` for each cgroup v2 controller that enforces one. */
export const LIMIT_BY_CONTROLLER = {
  memory: { memoryBytes: 64 << 20 },
  pids: { pids: 10 },
  cpu: { cpuPercent: 50 },
} as const;

/** A controller of {@link LIMIT_BY_CONTROLLER}. */
export type LimitController = keyof typeof LIMIT_BY_CONTROLLER;
