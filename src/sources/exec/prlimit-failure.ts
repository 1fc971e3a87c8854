import { SluiceError } from '../../core/errors/sluice-error.js';
import type { ExecRlimits } from './exec-rlimits.js';
import type { ExitInfo } from './process-port.js';

/** prlimit's names of the limits, and the `rlimits` option each comes from. */
const OPTION_OF: Readonly<Record<string, keyof ExecRlimits>> = {
  CPU: 'cpuSeconds',
  AS: 'addressSpaceBytes',
  FSIZE: 'fileSizeBytes',
  NOFILE: 'openFiles',
};

/** What prlimit (util-linux) prints when it cannot set a limit, before it would run the command. */
const REFUSAL =
  /^prlimit: (?:failed to set the (\w+) resource limit|the soft limit (\w+) cannot exceed the hard limit)[^\n]*\n?$/;

/**
 * Tells a run that never started because `prlimit` could not set one of the `rlimits` (a value
 * above the hard limit this process may raise it to, such as `openFiles` past the kernel's
 * `nr_open`) from a command that failed: prlimit then exits 1 having written nothing but its one
 * line of refusal, and the command never ran. Returns the `RLIMIT_UNAVAILABLE` error that names the
 * limit and prlimit's reason, or `undefined`.
 *
 * @example
 * ```ts
 * prlimitFailure({ openFiles: 2 ** 30 }, { exitCode: 1, signal: null }, '',
 *   'prlimit: failed to set the NOFILE resource limit: Operation not permitted\n');
 * // SluiceError RLIMIT_UNAVAILABLE: Cannot apply the `rlimits.openFiles` limit (1073741824): prlimit: failed to set …
 * ```
 */
export function prlimitFailure(
  rlimits: ExecRlimits | undefined,
  exit: ExitInfo,
  stdout: string,
  stderr: string,
): SluiceError | undefined {
  if (rlimits === undefined || exit.exitCode !== 1 || stdout !== '') return undefined;
  const match = REFUSAL.exec(stderr);
  if (match === null) return undefined;
  const reason = stderr.trimEnd();
  const option = OPTION_OF[match[1] ?? match[2] ?? ''];
  const what =
    option === undefined
      ? 'the `rlimits` option'
      : `the \`rlimits.${option}\` limit (${String(rlimits[option])})`;
  return new SluiceError('RLIMIT_UNAVAILABLE', `Cannot apply ${what}: ${reason}`, {
    info: { rlimits, limit: option, reason },
  });
}
