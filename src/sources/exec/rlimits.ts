import { constants } from 'node:os';
import { SluiceError } from '../../core/errors/sluice-error.js';
import type { RlimitName } from './exec-result.js';
import { findExecutable, toolSearchPath } from './find-executable.js';
import type { ExecRlimits, ExitInfo } from './process-port.js';

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
  searchPath = toolSearchPath(process.env.PATH),
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

/**
 * Tells which resource limit a child ran into, from how it ended:
 *
 * - `SIGXCPU` → `cpu`; `SIGKILL` that sluice did not send, with a CPU limit → `cpu` (the hard limit);
 * - `SIGXFSZ` → `fileSize`;
 * - the same signals seen by a shell leader, which exits with 128 + the signal number;
 * - heuristically, from a failing exit and the captured stderr (Python, for one, ignores `SIGXFSZ`
 *   and reports errors instead): "File too large" → `fileSize`, "Too many open files" → `openFiles`,
 *   "MemoryError"/"Cannot allocate memory"/"out of memory" (or `SIGSEGV`/`SIGABRT`) → `addressSpace`.
 *
 * Only limits that were actually set are ever reported.
 */
export function rlimitHit(
  rlimits: ExecRlimits | undefined,
  exit: ExitInfo,
  stderr: string,
  killedBySluice: boolean,
): RlimitName | null {
  if (rlimits === undefined) return null;
  const { signal, exitCode } = exit;
  const failed = exitCode !== null && exitCode !== 0;
  // A shell reports a child's death by signal n as exit code 128 + n.
  const shellSaw = (name: 'SIGXCPU' | 'SIGXFSZ' | 'SIGKILL') => exitCode === 128 + constants.signals[name];
  if (rlimits.cpuSeconds !== undefined) {
    if (signal === 'SIGXCPU' || shellSaw('SIGXCPU')) return 'cpu';
    if ((signal === 'SIGKILL' && !killedBySluice) || shellSaw('SIGKILL')) return 'cpu';
  }
  if (rlimits.fileSizeBytes !== undefined) {
    if (signal === 'SIGXFSZ' || shellSaw('SIGXFSZ') || (failed && /File too large|EFBIG/.test(stderr))) {
      return 'fileSize';
    }
  }
  if (rlimits.openFiles !== undefined && failed && /Too many open files|EMFILE/.test(stderr)) {
    return 'openFiles';
  }
  if (rlimits.addressSpaceBytes !== undefined) {
    if (signal === 'SIGSEGV' || signal === 'SIGABRT') return 'addressSpace';
    if (failed && /MemoryError|Cannot allocate memory|ENOMEM|out of memory/i.test(stderr)) {
      return 'addressSpace';
    }
  }
  return null;
}
