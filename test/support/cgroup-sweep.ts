import { removeCgroupsOfDeadProcesses } from './cgroups.js';

/**
 * vitest's global setup: when the run ends, removes the empty cgroups that test processes killed
 * with `SIGKILL` left (nothing can clean up after that, docs/containment.md), so that runs of the
 * suite do not pile them up on the machine. Only empty cgroups of processes no longer alive.
 */
export default function setup(): () => void {
  return () => {
    const removed = removeCgroupsOfDeadProcesses();
    if (removed.length > 0) {
      process.stderr.write(
        `\n[sluice tests] removed ${removed.length} empty cgroup(s) left by killed test processes\n`,
      );
    }
  };
}
