/**
 * The result of the Exec tool — the same shape whether it streamed or not.
 *
 * - `exit_code` — the exit code, or `null` when the child died by a signal (see `signal`);
 * - `stdout` / `stderr` — the output, each capped at `max_output_bytes` (`truncated` says so);
 * - `timed_out` — the wall-clock limit killed it;
 * - `rlimit_hit` — present only when a resource limit killed it (`'cpu'`, `'fileSize'`, …);
 * - `limit_hit` — present only when a tree-wide limit of the host's config ended it (`'memory'`, `'pids'`);
 * - `duration_ms` — wall-clock run time;
 * - `containment` — `'cgroup'` (its own cgroup: daemons it started were killed with it) or `'group'`;
 * - `usage` — with a cgroup, the CPU time of every process it started (`cpu_user_ms`,
 *   `cpu_system_ms`), and where the controllers are enabled `memory_peak_bytes` and `pids_peak`.
 */
export interface ExecToolResult {
  readonly exit_code: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly truncated: boolean;
  readonly timed_out: boolean;
  readonly rlimit_hit?: 'cpu' | 'addressSpace' | 'fileSize' | 'openFiles';
  readonly limit_hit?: 'memory' | 'pids';
  readonly duration_ms: number;
  readonly containment: 'cgroup' | 'group';
  readonly usage?: ExecToolUsage;
}

/** What a command of the Exec tool used (its `usage`, with a cgroup): see {@link ExecToolResult}. */
export interface ExecToolUsage {
  readonly cpu_user_ms: number;
  readonly cpu_system_ms: number;
  readonly memory_peak_bytes?: number;
  readonly pids_peak?: number;
}
