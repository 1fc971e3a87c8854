/**
 * What a finished run of `exec` produced (its `exit` event's content; what an `ExecError`
 * carries). `stdout` and `stderr` each keep up to `maxOutputBytes` bytes, cut at a UTF-8 boundary.
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
  /** Whether stdout or stderr was cut at `maxOutputBytes`. */
  truncated: boolean;
  /** Wall time from subscribe to the child's exit, measured with the scheduler. */
  durationMs: number;
  stdout: string;
  stderr: string;
  /** Which resource limit the child ran into, if any (see `rlimits`). */
  rlimitHit: RlimitName | null;
  containment: Containment;
  /** What the whole run used, from its cgroup (`null` without one). */
  usage: ExecUsage | null;
  /** Which tree-wide limit of the run (see `limits`) it ran into, if any. */
  limitHit: LimitName | null;
}

/**
 * What a run used, every process it started included, read from its cgroup when the run's result
 * is built (docs/containment.md, "What each run used"): CPU time (`cpu.stat`, in milliseconds),
 * and where those controllers are enabled `memory.peak` and `pids.peak`.
 */
export interface ExecUsage {
  cpuUserMs: number;
  cpuSystemMs: number;
  memoryPeakBytes?: number;
  pidsPeak?: number;
}

/**
 * How a run was contained: its own cgroup v2, which holds every process it starts however it
 * daemonizes, or its own process group, which a descendant leaves with `setsid` (docs/containment.md).
 */
export type Containment = 'cgroup' | 'group';

/** Which of `exec`'s `limits` a run ran into (`cpuPercent` only slows a run, it is never "hit"). */
export type LimitName = 'memory' | 'pids';

/** Which of `exec`'s `rlimits` a child ran into, as far as sluice can tell. */
export type RlimitName = 'cpu' | 'addressSpace' | 'fileSize' | 'openFiles';
