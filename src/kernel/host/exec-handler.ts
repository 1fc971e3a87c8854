import { lastValueFrom } from 'rxjs';
import { exec } from '../../sources/exec.js';
import type { ExecPayload } from './exec-payload.js';
import type { HostcallHandler } from './hostcall-handler.js';

/**
 * The default handler of a non-streaming `exec` hostcall (the seed's unchanged path): runs the
 * command to its end and answers `Success({ stdout, stderr, exit_code, signal, timed_out,
 * truncated, rlimit_hit, duration_ms })`. A non-zero exit is still a `Success` (read `exit_code`); only a
 * spawn failure (`SPAWN_FAILED`) is an `Error`.
 *
 * @example
 * ```ts
 * const host = createHost({ handlers: { exec: execHandler } });
 * ```
 */
export const execHandler: HostcallHandler = async (raw, context) => {
  const payload = raw as unknown as ExecPayload;
  const options: Parameters<typeof exec>[2] = {
    timeoutMs: payload.timeout_ms ?? 0,
    scheduler: context.scheduler,
    reject: false,
  };
  if (payload.cwd !== undefined) options.cwd = payload.cwd;
  if (payload.env !== undefined) options.env = { ...payload.env };
  const last = await lastValueFrom(exec(payload.cmd, payload.args ?? [], options));
  if (last.kind !== 'exit') throw new Error('exec ended without an exit event');
  const { stdout, stderr, exitCode, signal, timedOut, truncated, rlimitHit, durationMs } = last.content;
  return {
    stdout,
    stderr,
    exit_code: exitCode,
    signal,
    timed_out: timedOut,
    truncated,
    rlimit_hit: rlimitHit,
    duration_ms: durationMs,
  };
};
