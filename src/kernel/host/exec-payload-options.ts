import type { SchedulerLike } from 'rxjs';
import type { ExecOptions } from '../../sources/exec.js';
import type { ExecPayload } from './exec-payload.js';

/**
 * Maps a validated `exec` payload to options of the `exec` source: `cwd`, `env`, `timeout_ms`
 * (`timeoutMs`, 0 = none) and `rlimits` (`cpu_s` → `cpuSeconds`, `as_bytes` →
 * `addressSpaceBytes`, `fsize_bytes` → `fileSizeBytes`, `nofile` → `openFiles`), on the host's
 * clock. `reject` is the caller's: the streaming producer errors on a failed run, the
 * non-streaming handler reports it in its `Success`.
 *
 * @example
 * ```ts
 * execPayloadOptions({ cmd: 'make', rlimits: { cpu_s: 60 } }, asyncScheduler, true);
 * // { timeoutMs: 0, scheduler, reject: true, rlimits: { cpuSeconds: 60 } }
 * ```
 */
export function execPayloadOptions(
  payload: ExecPayload,
  scheduler: SchedulerLike,
  reject: boolean,
): ExecOptions {
  const options: ExecOptions = { timeoutMs: payload.timeout_ms ?? 0, scheduler, reject };
  if (payload.cwd !== undefined) options.cwd = payload.cwd;
  if (payload.env !== undefined) options.env = { ...payload.env };
  const limits = payload.rlimits;
  if (limits !== undefined) {
    options.rlimits = {
      ...(limits.cpu_s === undefined ? {} : { cpuSeconds: limits.cpu_s }),
      ...(limits.as_bytes === undefined ? {} : { addressSpaceBytes: limits.as_bytes }),
      ...(limits.fsize_bytes === undefined ? {} : { fileSizeBytes: limits.fsize_bytes }),
      ...(limits.nofile === undefined ? {} : { openFiles: limits.nofile }),
    };
  }
  return options;
}
