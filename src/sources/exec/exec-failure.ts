import { CancelledError } from '../../core/errors/cancelled-error.js';
import { SluiceError } from '../../core/errors/sluice-error.js';
import { cgroupJoinFailed } from './cgroup-handle.js';
import { ExecError } from './exec-error.js';
import type { ResolvedExecOptions } from './exec-options.js';
import type { ExecResult } from './exec-result.js';
import type { ExitInfo } from './process-port.js';
import { prlimitFailure } from './rlimits.js';

/**
 * How a finished exec run fails, or `undefined` when it ends with its `exit` event: cancelled
 * through `cancelSignal` (`cancelled` holds the signal's reason), refused by `prlimit`, unable to
 * join its cgroup, or — with `reject` — timed out, exited non-zero or hit a tree-wide limit.
 */
export function execFailure(
  options: Pick<ResolvedExecOptions, 'rlimits' | 'reject' | 'timeoutMs'>,
  exit: ExitInfo,
  result: ExecResult,
  cancelled: { readonly reason: unknown } | undefined,
): Error | undefined {
  if (cancelled !== undefined) return cancelledError(cancelled.reason, result, result.command);
  const refused =
    prlimitFailure(options.rlimits, exit, result.stdout, result.stderr) ?? cgroupJoinFailure(result);
  if (refused !== undefined) return refused;
  if (options.reject && (result.timedOut || result.exitCode !== 0 || result.limitHit !== null)) {
    return new ExecError(result, { timeoutMs: options.timeoutMs });
  }
  return undefined;
}

/**
 * The error of a run cancelled through `cancelSignal`, with what it produced so far (`result`,
 * when the run got that far): "Command was cancelled: make", or for `http` "Request was
 * cancelled (reason): GET http://…".
 */
export function cancelledError<R = ExecResult>(
  reason: unknown,
  result: R | undefined,
  subject: string,
  what = 'Command',
): CancelledError<R> {
  const why = reason instanceof Error && reason.name !== 'AbortError' ? ` (${reason.message})` : '';
  return new CancelledError(`${what} was cancelled${why}: ${subject}`, { reason, result }, { cause: reason });
}

/**
 * Tells a run whose wrapper could not move into its cgroup (so the command never ran, see
 * {@link cgroupJoinFailed}) from a command that failed: the `CGROUP_UNAVAILABLE` error, or
 * `undefined`.
 */
export function cgroupJoinFailure(result: ExecResult): SluiceError | undefined {
  if (result.containment !== 'cgroup' || result.stdout !== '') return undefined;
  const exit = { exitCode: result.exitCode, signal: result.signal };
  if (!cgroupJoinFailed(exit, result.stderr)) return undefined;
  const reason = result.stderr.trimEnd();
  return new SluiceError('CGROUP_UNAVAILABLE', `Cannot contain the run in a cgroup: ${reason}`, {
    info: { reason, result },
  });
}
