/**
 * What a finished run of `exec` produced (its `exit` event's content; what an `ExecError`
 * carries). `stdout` and `stderr` are each accumulated up to
 * `maxOutputBytes` bytes (cut at a UTF-8 boundary); `truncated` is `true` when either stream wrote
 * more than that.
 */
export interface ExecResult {
  /** The file and its arguments, quoted for display. */
  command: string;
  /** The pid of the child (the leader of its process group), `undefined` if it never started. */
  pid: number | undefined;
  /** The exit code, `null` when it died by a signal. */
  exitCode: number | null;
  /** The signal that killed it (`'SIGTERM'`, …), or `null`. */
  signal: string | null;
  /** Whether `timeoutMs` expired and sluice killed it. */
  timedOut: boolean;
  /** Whether stdout or stderr wrote more than `maxOutputBytes`. */
  truncated: boolean;
  /** Wall time from subscribe to the child's exit, measured with the scheduler. */
  durationMs: number;
  stdout: string;
  stderr: string;
  /** Which resource limit the child ran into, if any (see `rlimits`). */
  rlimitHit: RlimitName | null;
  /** How the run was contained: its own cgroup, or its own process group (see the `containment` option). */
  containment: Containment;
  /**
   * What the whole run used, from its cgroup when it ends (`null` without one: see
   * {@link ExecUsage}). Processes killed because the run ended may still have been finishing.
   */
  usage: ExecUsage | null;
  /** Which tree-wide limit of the run (see `limits`) it ran into, if any. */
  limitHit: LimitName | null;
}

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

/**
 * How a run was contained (the exit result's `containment`): `'cgroup'` — its own cgroup v2, which
 * holds every process it starts however it daemonizes, ended with `cgroup.kill`; `'group'` — its
 * own process group, which a descendant leaves with `setsid`. See docs/containment.md.
 */
export type Containment = 'cgroup' | 'group';

/**
 * The tree-wide limit (the `limits` option of `exec`, enforced by the run's cgroup) a run ran
 * into: `'memory'` when the kernel's OOM killer ended it at `limits.memoryBytes`, `'pids'` when a
 * fork failed at `limits.pids`. (`limits.cpuPercent` throttles and is never "hit".)
 */
export type LimitName = 'memory' | 'pids';

/**
 * The resource limit a child ran into, as far as sluice can tell (see the
 * `rlimits` option of `exec`).
 */
export type RlimitName = 'cpu' | 'addressSpace' | 'fileSize' | 'openFiles';
