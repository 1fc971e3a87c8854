/**
 * The tree-wide limit (the `limits` option of `exec`, enforced by the run's cgroup) a run ran
 * into: `'memory'` when the kernel's OOM killer ended it at `limits.memoryBytes`, `'pids'` when a
 * fork failed at `limits.pids`. (`limits.cpuPercent` throttles and is never "hit".)
 */
export type LimitName = 'memory' | 'pids';
