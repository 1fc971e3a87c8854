import { removeCgroupsLeftSince } from './cgroups.js';

/**
 * vitest's global setup: when the run ends, removes the empty cgroups that test processes killed
 * with `SIGKILL` left (nothing can clean up after that, docs/containment.md), so that runs of the
 * suite do not pile them up on the machine. Only cgroups of processes no longer alive, changed
 * since the run began.
 */
export default function setup(): () => void {
  const began = Date.now();
  return () => {
    const removed = removeCgroupsLeftSince(began);
    if (removed.length > 0) {
      process.stderr.write(
        `\n[sluice tests] removed ${removed.length} empty cgroup(s) left by killed test processes\n`,
      );
    }
  };
}
