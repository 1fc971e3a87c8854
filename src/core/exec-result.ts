import type { RlimitName } from './rlimit-name.js';

/**
 * What a finished run of `exec` produced (its `exit` event's content; what an `ExecError`
 * carries). `stdout` and `stderr` are each accumulated up to
 * `maxOutputBytes` bytes (cut at a UTF-8 boundary); `truncated` is `true` when either stream wrote
 * more than that.
 *
 * @example
 * ```ts
 * const result: ExecResult = {
 *   command: 'echo hi', pid: 123, exitCode: 0, signal: null, timedOut: false, truncated: false,
 *   durationMs: 4, stdout: 'hi\n', stderr: '', rlimitHit: null,
 * };
 * ```
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
}
