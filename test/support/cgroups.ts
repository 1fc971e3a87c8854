import { readdirSync, readFileSync } from 'node:fs';
import { cgroupSupport } from '../../src/sources/exec/cgroup-support.js';

/** The cgroup under which this machine's runs get theirs (see src/sources/exec/cgroup-support.ts), or `undefined`. */
export function cgroupBase(): string | undefined {
  const support = cgroupSupport();
  return 'base' in support ? support.base : undefined;
}

/**
 * The cgroups sluice made for the runs of process `pid` (this test process by default): its own
 * `sluice-<pid>-<random>` under the base and the runs' cgroups in it. Only these are a test's to
 * check: other processes' sluice cgroups belong to other tests.
 */
export function sluiceCgroupsOf(pid = process.pid): string[] {
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
