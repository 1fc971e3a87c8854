import { SluiceError } from '../../core/errors/sluice-error.js';
import { cgroupJoinFailed } from './cgroup-command.js';
import type { ExecResult } from './exec-result.js';

/**
 * Tells a run whose wrapper could not move into its cgroup (so the command never ran, see
 * {@link cgroupJoinFailed}) from a command that failed: the `CGROUP_UNAVAILABLE` error, or
 * `undefined`.
 *
 * @example
 * ```ts
 * const refused = prlimitFailure(rlimits, exit, result.stdout, result.stderr) ?? cgroupJoinFailure(result);
 * ```
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
