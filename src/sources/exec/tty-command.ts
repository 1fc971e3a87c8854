import { SluiceError } from '../../core/errors/sluice-error.js';
import { findExecutable } from './find-executable.js';
import { quoteCommand } from './quote-command.js';

const FALLBACK_PATH = '/usr/bin:/bin:/usr/sbin:/sbin';

/** The size of a terminal, in character cells. */
export interface TtySize {
  readonly columns: number;
  readonly rows: number;
}

/** The file descriptor on which the shell inside the terminal reports its session id and terminal path. */
export const TTY_REPORT_FD = 3;

/**
 * Wraps a command so that it runs on a pseudo-terminal of `size`, through util-linux's `script`
 * (docs/terminal.md, "Where the terminal comes from"): `script -q -e -f -c '<inner>' /dev/null`.
 * `script` forks a child that starts a new session with the terminal as its controlling terminal
 * and runs `<inner>` with `/bin/sh`; `<inner>` sets the window size, reports its pid (the session
 * id) and the terminal's path on fd 3, closes fd 3, puts back the caller's `SHELL` and `exec`s the
 * command (so the command is the session leader). `script` copies everything the terminal shows to
 * its stdout, flushing at once (`-f`), and exits with the command's exit code (`-e`; 128 + n for a
 * death by signal n).
 *
 * Returns the command to spawn and the environment entries it needs on top of the child's own
 * (`SHELL`, and a default `TERM` when the child's has none). Throws a `SluiceError` with code
 * `TTY_UNAVAILABLE` where there is no util-linux `script` on `searchPath` (default: the child's
 * `PATH`, then the usual system folders).
 *
 * @example
 * ```ts
 * ttyCommand('ls', ['--color=auto'], { columns: 80, rows: 24 }, process.env);
 * // { file: '/usr/bin/script', args: ['-q', '-e', '-f', '-c', "stty cols 80 rows 24 …; exec ls --color=auto", '/dev/null'], env: { SHELL: '/bin/sh', … } }
 * ```
 */
export function ttyCommand(
  file: string,
  args: readonly string[],
  size: TtySize,
  env: Readonly<Record<string, string | undefined>>,
  searchPath = `${env.PATH ?? ''}:${FALLBACK_PATH}`,
): { file: string; args: string[]; env: Record<string, string> } {
  const script = findScript(searchPath);
  const shell = env.SHELL;
  const restoreShell = shell === undefined ? 'unset SHELL' : `SHELL=${quoteCommand(shell, [])}; export SHELL`;
  const inner = [
    `stty cols ${size.columns} rows ${size.rows} 2>/dev/null`,
    `{ echo $$; tty; } >&${TTY_REPORT_FD}`,
    `exec ${TTY_REPORT_FD}>&-`,
    restoreShell,
    `exec ${quoteCommand(file, args)}`,
  ].join('; ');
  const added: Record<string, string> = { SHELL: '/bin/sh' };
  if (env.TERM === undefined || env.TERM === '') added.TERM = 'xterm-256color';
  return { file: script, args: ['-q', '-e', '-f', '-c', inner, '/dev/null'], env: added };
}

/** util-linux's `script`, on Linux only (BSD's and macOS's take other arguments). */
function findScript(searchPath: string): string {
  const found = process.platform === 'linux' ? findExecutable('script', searchPath) : undefined;
  if (found !== undefined && 'path' in found) return found.path;
  throw new SluiceError(
    'TTY_UNAVAILABLE',
    process.platform === 'linux'
      ? 'Cannot run the command on a terminal (the `tty` option): `script` was not found on PATH; install util-linux (Debian and Ubuntu: `apt-get install bsdutils`, Alpine: `apk add util-linux-misc`)'
      : `Cannot run the command on a terminal (the \`tty\` option): terminal runs need util-linux's \`script\`, which runs on Linux only (this is ${process.platform})`,
    { info: { platform: process.platform } },
  );
}
