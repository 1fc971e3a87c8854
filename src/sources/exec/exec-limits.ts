/**
 * Limits of a whole run — every process it starts, together — enforced by its cgroup (so they need
 * `containment: 'cgroup'` or `'auto'` on a machine where cgroups work, and the cgroup v2 controller
 * of each limit enabled; otherwise the run fails with `LIMIT_UNAVAILABLE`, never runs without
 * them). Unlike `rlimits`, which apply to each process on its own, a fork cannot escape them.
 *
 * - `memoryBytes` — `memory.max` (swap off: `memory.swap.max` 0); the kernel's OOM killer ends the
 *   whole run (`memory.oom.group`) when it is reached: `limitHit: 'memory'`.
 * - `pids` — `pids.max`: a fork past it fails, and sluice then ends the run: `limitHit: 'pids'`.
 * - `cpuPercent` — `cpu.max`: at most this share of one CPU (200 = two CPUs); the run is slowed,
 *   never ended.
 */
export interface ExecLimits {
  memoryBytes?: number;
  pids?: number;
  cpuPercent?: number;
}
