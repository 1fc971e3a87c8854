import type { ExecResult } from '../../sources/exec.js';

/**
 * How an exec result's exit travels on the wire (snake_case, as docs/protocol.md writes it):
 * the final chunk of a streaming `exec` hostcall is exactly this, and the non-streaming answer is
 * this plus `stdout` and `stderr`. Internal to the host.
 *
 * @example
 * ```ts
 * execExitInfo(result); // { exit_code: 0, signal: null, timed_out: false, truncated: false, rlimit_hit: null, duration_ms: 12 }
 * ```
 */
export function execExitInfo(result: ExecResult) {
  return {
    exit_code: result.exitCode,
    signal: result.signal,
    timed_out: result.timedOut,
    truncated: result.truncated,
    rlimit_hit: result.rlimitHit,
    duration_ms: result.durationMs,
  };
}
