/**
 * What a run used, as the exit result's `usage` reports it. With `containment: 'cgroup'` the
 * figures are the whole run's — every process it started, daemons included — read from its
 * cgroup when the run ends (`cpu.stat`, and where those controllers are enabled `memory.peak`
 * and `pids.peak`). Without a cgroup there is no sound figure to give (see docs/containment.md)
 * and `usage` is `null`.
 */
export interface ExecUsage {
  /** CPU time spent in user mode by every process of the run, in milliseconds (microsecond precision). */
  cpuUserMs: number;
  /** CPU time spent in the kernel on behalf of every process of the run, in milliseconds. */
  cpuSystemMs: number;
  /** The most memory the run held at once, in bytes (`memory.peak`): only where the memory controller is enabled. */
  memoryPeakBytes?: number;
  /** The most processes the run had at once (`pids.peak`): only where the pids controller is enabled. */
  pidsPeak?: number;
}
