/**
 * The result of the Exec tool — the same shape whether it streamed or not.
 *
 * - `exit_code` — the exit code, or `null` when the child died by a signal (see `signal`);
 * - `stdout` / `stderr` — the output, each capped at `max_output_bytes` (`truncated` says so);
 * - `timed_out` — the wall-clock limit killed it;
 * - `rlimit_hit` — present only when a resource limit killed it (`'cpu'`, `'fileSize'`, …);
 * - `duration_ms` — wall-clock run time.
 *
 * @example
 * ```ts
 * import type { ExecToolResult } from 'sluice/kernel';
 * const result: ExecToolResult = {
 *   exit_code: 0, signal: null, stdout: 'hi\n', stderr: '', truncated: false, timed_out: false, duration_ms: 4,
 * };
 * ```
 */
export interface ExecToolResult {
  readonly exit_code: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly truncated: boolean;
  readonly timed_out: boolean;
  readonly rlimit_hit?: 'cpu' | 'addressSpace' | 'fileSize' | 'openFiles';
  readonly duration_ms: number;
}
