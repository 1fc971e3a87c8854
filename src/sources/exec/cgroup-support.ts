import { accessSync, constants, existsSync, mkdirSync, rmdirSync } from 'node:fs';
import { readCgroupLocation } from './cgroup-root.js';

/** Whether runs can get their own cgroup here: the cgroup to create them under, or why not. */
export type CgroupSupport = { readonly base: string } | { readonly unavailable: string };

let cached: CgroupSupport | undefined;

/**
 * Tells once per process whether runs can be contained by cgroup: this process's own cgroup v2
 * directory (see {@link readCgroupLocation}) must be writable, as is `cgroup.procs` there (moving
 * a child from this cgroup into one below it needs both), and a cgroup made there must have
 * `cgroup.kill` (Linux 5.14 or later; one trial cgroup is made and removed) — true for root, and for a normal user inside a delegated subtree (systemd's
 * `Delegate=yes`, `systemd-run --user --scope -p Delegate=yes`, a container with its own cgroup
 * namespace mounted read-write). The answer is kept: it does not change while the process runs.
 *
 * @example
 * ```ts
 * const support = cgroupSupport();
 * if ('unavailable' in support) console.log('process groups only:', support.unavailable);
 * ```
 */
export function cgroupSupport(): CgroupSupport {
  cached ??= probe();
  return cached;
}

function probe(): CgroupSupport {
  const location = readCgroupLocation();
  if ('unavailable' in location) return location;
  const { dir } = location;
  if (!existsSync(`${dir}/cgroup.procs`)) {
    return { unavailable: `this process's cgroup directory ${dir} cannot be read` };
  }
  const trial = `${dir}/sluice-${process.pid}-probe`;
  try {
    accessSync(dir, constants.W_OK);
    accessSync(`${dir}/cgroup.procs`, constants.W_OK);
    mkdirSync(trial);
  } catch (error) {
    return {
      unavailable:
        `this process may not create cgroups in ${dir} (${(error as NodeJS.ErrnoException).code}): run as root, ` +
        'or in a delegated subtree such as `systemd-run --user --scope -p Delegate=yes …` (see docs/containment.md)',
    };
  }
  const killable = existsSync(`${trial}/cgroup.kill`);
  rmdirSync(trial);
  if (!killable) return { unavailable: 'the kernel has no cgroup.kill (Linux 5.14 or later is needed)' };
  return { base: dir };
}
