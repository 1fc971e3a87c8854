import { lastValueFrom } from 'rxjs';
import { SluiceError } from '../../core/errors/sluice-error.js';
import { exec } from '../../sources/exec.js';
import { execExitInfo } from './exec-exit-info.js';
import type { ExecPayload } from './exec-payload.js';
import { execPayloadOptions } from './exec-payload-options.js';
import type { HostcallHandler } from './hostcall-handler.js';

/**
 * The default handler of a non-streaming `exec` hostcall (the path without `stream: true`): runs the
 * command to its end and answers `Success({ stdout, stderr, exit_code, signal, timed_out,
 * truncated, rlimit_hit, duration_ms })`. A non-zero exit or a death by signal is still a
 * `Success` (read `exit_code`, `signal`, and `rlimit_hit`: `'cpu'`, `'addressSpace'`, `'fileSize'`,
 * `'openFiles'` or `null`, for the payload's `rlimits`); only a spawn failure (`SPAWN_FAILED`) is an `Error`.
 *
 * @example
 * ```ts
 * const host = createHost({ handlers: { exec: execHandler } });
 * ```
 */
export const execHandler: HostcallHandler = async (raw, context) => {
  const payload = raw as unknown as ExecPayload;
  const options = execPayloadOptions(payload, context.scheduler, false);
  const last = await lastValueFrom(exec(payload.cmd, payload.args ?? [], options));
  if (last.kind !== 'exit') throw new SluiceError('HOSTCALL_FAILED', 'exec ended without an exit event');
  return { stdout: last.content.stdout, stderr: last.content.stderr, ...execExitInfo(last.content) };
};
