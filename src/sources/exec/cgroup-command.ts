import type { ExitInfo } from './process-port.js';

/** The shell that moves itself into the run's cgroup before it becomes the command. */
const SHELL = '/bin/sh';
/** The exit code of a wrapper that could not join the cgroup (the command never ran). */
const JOIN_FAILED = 125;
const JOIN_FAILED_LINE = 'sluice: cannot join the cgroup ';
/**
 * `$$` is the shell's pid, which `exec` keeps for the command: the child is in the run's cgroup
 * before it runs anything of the command, so every process it will ever start is too.
 */
const SCRIPT = `{ echo $$ > "$0"; } 2>/dev/null || { echo "${JOIN_FAILED_LINE}$0" >&2; exit ${JOIN_FAILED}; }; exec "$@"`;

/**
 * Wraps a command so that it starts inside a cgroup: `/bin/sh -c '<join>; exec "$@"' <procsFile>
 * file args…`. Node cannot spawn into a cgroup (`clone3`'s `CLONE_INTO_CGROUP`), and moving the
 * child from the parent after `spawn` returns would race with its first fork; a shell that writes
 * its own pid into `cgroup.procs` and then `exec`s the command (same pid, same argv) costs one
 * exec of `sh` (measured in the bench's spawn section) and never races.
 *
 * @example
 * ```ts
 * cgroupCommand('/sys/fs/cgroup/sluice-1-ab12cd/run-1/cgroup.procs', 'make', ['test']);
 * // { file: '/bin/sh', args: ['-c', '{ echo $$ > "$0"; } …; exec "$@"', '/sys/…/cgroup.procs', 'make', 'test'] }
 * ```
 */
export function cgroupCommand(
  procsFile: string,
  file: string,
  args: readonly string[],
): { file: string; args: string[] } {
  return { file: SHELL, args: ['-c', SCRIPT, procsFile, file, ...args] };
}

/**
 * Whether a run ended because its wrapper could not join the cgroup (exit code 125 with the
 * wrapper's one line on stderr), so the command never ran.
 *
 * @example
 * ```ts
 * cgroupJoinFailed({ exitCode: 125, signal: null }, 'sluice: cannot join the cgroup /sys/…/cgroup.procs\n'); // true
 * ```
 */
export function cgroupJoinFailed(exit: ExitInfo, stderr: string): boolean {
  return (
    exit.exitCode === JOIN_FAILED &&
    stderr.startsWith(JOIN_FAILED_LINE) &&
    stderr.indexOf('\n') === stderr.length - 1
  );
}
