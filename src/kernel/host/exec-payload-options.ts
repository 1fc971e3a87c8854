import type { SchedulerLike } from 'rxjs';
import type { ExecRlimits } from '../../sources/exec/process-port.js';
import type { ExecOptions } from '../../sources/exec.js';
import { fromWireNames } from '../protocol/wire-names.js';
import type { ExecPayload } from './exec-payload.js';

/**
 * Maps a validated `exec` payload to options of the `exec` source: `cwd`, `env`, `timeout_ms`
 * (`timeoutMs`, 0 = none) and `rlimits` (`cpu_s` → `cpuSeconds`, … by {@link fromWireNames}), on the host's
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
  if (payload.rlimits !== undefined) options.rlimits = fromWireNames({ ...payload.rlimits }) as ExecRlimits;
  return options;
}
