import { SluiceError } from '../../core/errors/sluice-error.js';
import type { ExecRlimits } from './exec-rlimits.js';
import { findExecutable } from './find-executable.js';

const FALLBACK_PATH = '/usr/bin:/bin:/usr/sbin:/sbin';

/**
 * Wraps a command so it runs under `rlimits`: `prlimit --cpu=S:S+1 --as=N --fsize=N --nofile=N --
 * file args…`. `prlimit` sets the limits on itself and then execs the command, so the pid stays
 * the same. The CPU hard limit is one second above the soft one so the child gets `SIGXCPU`
 * (telling which limit was hit) before `SIGKILL`.
 *
 * Throws a `SluiceError` with code `RLIMIT_UNAVAILABLE` when `prlimit` is not found on `searchPath`
 * (default: `PATH`, then the usual system directories): a
 * command is never run without the limits it asked for.
 *
 * @example
 * ```ts
 * prlimitCommand('python3', ['spin.py'], { cpuSeconds: 1 });
 * // { file: '/usr/bin/prlimit', args: ['--cpu=1:2', '--', 'python3', 'spin.py'] }
 * ```
 */
export function prlimitCommand(
  file: string,
  args: readonly string[],
  rlimits: ExecRlimits,
  searchPath = `${process.env.PATH ?? ''}:${FALLBACK_PATH}`,
): { file: string; args: string[] } {
  const found = findExecutable('prlimit', searchPath);
  if (!('path' in found)) {
    throw new SluiceError(
      'RLIMIT_UNAVAILABLE',
      'Cannot apply the `rlimits` option: `prlimit` (util-linux) was not found on PATH',
      { info: { rlimits } },
    );
  }
  const limits: string[] = [];
  if (rlimits.cpuSeconds !== undefined) limits.push(`--cpu=${rlimits.cpuSeconds}:${rlimits.cpuSeconds + 1}`);
  if (rlimits.addressSpaceBytes !== undefined) limits.push(`--as=${rlimits.addressSpaceBytes}`);
  if (rlimits.fileSizeBytes !== undefined) limits.push(`--fsize=${rlimits.fileSizeBytes}`);
  if (rlimits.openFiles !== undefined) limits.push(`--nofile=${rlimits.openFiles}`);
  return { file: found.path, args: [...limits, '--', file, ...args] };
}
