import type { ExecResult } from '../../sources/exec.js';
import type { JsonValue } from '../protocol/json-value.js';
import { toWireNames } from '../protocol/wire-names.js';

/**
 * How an exec result's exit travels on the wire (snake_case, as docs/protocol.md writes it):
 * the final chunk of a streaming `exec` hostcall is exactly this, and the non-streaming answer is
 * this plus `stdout` and `stderr`. Internal to the host; the names come from {@link toWireNames}.
 *
 * @example
 * ```ts
 * execExitInfo(result); // { exit_code: 0, signal: null, timed_out: false, truncated: false, rlimit_hit: null, duration_ms: 12 }
 * ```
 */
export function execExitInfo(result: ExecResult): Record<string, JsonValue> {
  const { exitCode, signal, timedOut, truncated, rlimitHit, durationMs } = result;
  return toWireNames({ exitCode, signal, timedOut, truncated, rlimitHit, durationMs });
}
