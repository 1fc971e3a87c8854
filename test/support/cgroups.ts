import { readdirSync, readFileSync, rmdirSync, statSync } from 'node:fs';
import { cgroupSupport } from '../../src/sources/exec/cgroup-support.js';
import { processAlive } from './processes.js';

/** The cgroup under which this machine's runs get theirs (see src/sources/exec/cgroup-support.ts), or `undefined`. */
export function cgroupBase(): string | undefined {
  const support = cgroupSupport();
  return 'base' in support ? support.base : undefined;
}

/**
 * The cgroups sluice made for the runs of process `pid` (this test process by default): its own
 * `sluice-<pid>-<random>` under the base and the runs' cgroups in it. Only these are a test's to
 * check: other processes' sluice cgroups belong to other tests.
 *
 * A process killed by `SIGKILL` leaves its `sluice-<pid>-…` cgroup behind (docs/containment.md),
 * and pids are reused: a later process with the same pid would see that one as its own. So only
 * cgroups changed at or after `since` (epoch ms; for this process, when it started) count — a
 * cgroup directory's mtime is when it was made or last had a run's cgroup made or removed in it.
 */
export function sluiceCgroupsOf(
  pid = process.pid,
  since = pid === process.pid ? performance.timeOrigin : 0,
): string[] {
  const base = cgroupBase();
  if (base === undefined) return [];
  const found: string[] = [];
  for (const entry of readdirSync(base)) {
    if (!entry.startsWith(`sluice-${pid}-`)) continue;
    const path = `${base}/${entry}`;
    try {
      if (statSync(path).mtimeMs < since) continue;
      found.push(path);
      for (const run of readdirSync(path, { withFileTypes: true })) {
        if (run.isDirectory()) found.push(`${path}/${run.name}`);
      }
    } catch {
      // removed meanwhile
    }
  }
  return found;
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
 * Removes the empty `sluice-<pid>-…` cgroups (and their empty runs' cgroups) that processes no
 * longer alive made or changed at or after `since` (epoch ms), and returns them: what the tests
 * that kill a sluice process with `SIGKILL` leave behind by design (docs/containment.md). A cgroup
 * that still holds a process is left (its `rmdir` fails).
 */
export function removeCgroupsLeftSince(since: number): string[] {
  const base = cgroupBase();
  if (base === undefined) return [];
  const removed: string[] = [];
  for (const entry of readdirSync(base)) {
    const owner = /^sluice-(\d+)-[0-9a-f]+$/.exec(entry)?.[1];
    if (owner === undefined || processAlive(Number(owner))) continue;
    const path = `${base}/${entry}`;
    try {
      if (statSync(path).mtimeMs < since) continue;
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
