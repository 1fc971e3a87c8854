import type { Containment } from './containment.js';
import type { ExecUsage } from './exec-usage.js';
import type { LimitName } from './limit-name.js';
import type { RlimitName } from './rlimit-name.js';

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
