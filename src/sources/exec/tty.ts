import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { SluiceError } from '../../core/errors/sluice-error.js';
import { findExecutable, toolSearchPath } from './find-executable.js';
import {
  forgetAtExit,
  killAtExit,
  killProcessGroup,
  liveProcesses,
  processStat,
  signalEach,
} from './process-group.js';
import type { ProcessHandle, TtySize } from './process-port.js';
import { quoteCommand } from './quote-command.js';

/** The file descriptor on which the shell inside the terminal reports its session id and terminal path. */
export const TTY_REPORT_FD = 3;

/**
 * Wraps a command so that it runs on a pseudo-terminal of `size`, through util-linux's `script`
 * (docs/terminal.md, "Where the terminal comes from"): `script -q -e -f -c '<inner>' /dev/null`,
 * where `<inner>` (run by `/bin/sh` in the terminal's new session) sets the window size, reports
 * its pid (the session id) and the terminal's path on fd 3, closes fd 3, puts back the caller's
 * `SHELL` and `exec`s the command, which so leads the session.
 *
 * Returns the command to spawn and the environment entries it needs on top of the child's own
 * (`SHELL`, and a default `TERM` when the child's has none). Throws a `SluiceError` with code
 * `TTY_UNAVAILABLE` where there is no util-linux `script` on `searchPath`.
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
  searchPath = toolSearchPath(env.PATH),
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

/**
 * Gives the handle of a `script` process ({@link ttyCommand}) the terminal session it started, as
 * docs/terminal.md, "Cancel means gone on a terminal too" tells: `killGroup` signals every process
 * of the session, and `script`'s group only with `SIGKILL` or while the session is not known yet;
 * `groupAlive` is true while either lives; `resize` runs `stty -F`, one at a time, the last one
 * winning. With `cleanup` a {@link Lifeline} also writes `cgroupKill` (the run's `cgroup.kill`).
 * The session id and the terminal's path come on `report`; until then the session is found as
 * `script`'s child.
 */
export function onTerminal(
  inner: ProcessHandle,
  report: Readable,
  cleanup: boolean,
  cgroupKill: string | undefined,
): ProcessHandle {
  const scriptPid = inner.pid as number;
  const session = new TerminalSession(scriptPid, cleanup ? new Lifeline(scriptPid, cgroupKill) : undefined);
  let text = '';
  report.setEncoding('latin1');
  report.on('data', (chunk: string) => {
    text += chunk;
    session.reported(text);
  });
  report.on('error', () => {});
  return {
    ...inner,
    pid: scriptPid,
    killGroup: (signal) => {
      if (!session.kill(signal) || signal === 'SIGKILL') inner.killGroup(signal);
    },
    groupAlive: () => inner.groupAlive() || session.alive(),
    resize: (size) => session.resize(size),
    destroy: () => {
      inner.destroy();
      report.destroy();
    },
  };
}

/** The session on the terminal and its path, once known. */
class TerminalSession {
  readonly #scriptPid: number;
  /** With `cleanup`: kills the session if this process dies first; released once the session is gone. */
  readonly #lifeline: Lifeline | undefined;
  #sid: number | undefined;
  #path: string | undefined;
  /** The size still to apply, and whether an `stty` is running. */
  #pending: TtySize | undefined;
  #resizing = false;

  /**
   * With `cleanup`: kills the session when this process exits, found through `script` if its report
   * has not come yet (exit hooks run these before they kill `script`'s group: once `script` is gone,
   * its session can no longer be found, and the watcher would have nothing to kill).
   */
  readonly #atExit = (): void => void this.kill('SIGKILL');

  constructor(scriptPid: number, lifeline: Lifeline | undefined) {
    this.#scriptPid = scriptPid;
    this.#lifeline = lifeline;
    if (lifeline !== undefined) killAtExit(this.#atExit);
  }

  /** The report so far: `<sid>\n<terminal path>\n`. */
  reported(text: string): void {
    const [sid, path] = text.split('\n');
    if (this.#sid === undefined && sid !== undefined && /^\d+\n/.test(text)) this.#know(Number(sid));
    if (this.#path === undefined && path !== undefined && text.endsWith('\n') && path.startsWith('/dev/')) {
      this.#path = path;
      this.#applyPending();
    }
  }

  /** Signals every process of the session; `false` when it is not known (not started yet, or gone). */
  kill(signal: NodeJS.Signals): boolean {
    const sid = this.#sid ?? this.#findSession();
    if (sid === undefined) return false;
    // The leader's group first (forks in flight), then members that made groups of their own.
    const gone = !killProcessGroup(sid, signal);
    signalEach(liveProcesses((stat) => stat.session === sid && stat.pgrp !== sid) ?? [], signal);
    if (gone && signal === 'SIGKILL') forgetAtExit(sid);
    return true;
  }

  alive(): boolean {
    const sid = this.#sid ?? this.#findSession();
    const alive = sid !== undefined && (liveProcesses((stat) => stat.session === sid, true) ?? []).length > 0;
    if (!alive) {
      if (sid !== undefined) forgetAtExit(sid);
      forgetAtExit(this.#atExit);
      this.#lifeline?.release();
    }
    return alive;
  }

  resize(size: TtySize): void {
    this.#pending = size;
    this.#applyPending();
  }

  #know(sid: number): void {
    this.#sid = sid;
    if (this.#lifeline === undefined) return;
    killAtExit(sid);
    this.#lifeline.know(sid);
  }

  /** Before the report came: the session `script`'s child leads, if it has started one. */
  #findSession(): number | undefined {
    const [child] = liveProcesses((stat) => stat.ppid === this.#scriptPid, true) ?? [];
    const session = child === undefined ? undefined : processStat(child)?.session;
    if (session === undefined || session !== child) return undefined;
    this.#know(session);
    return session;
  }

  #applyPending(): void {
    const size = this.#pending;
    if (size === undefined || this.#path === undefined || this.#resizing) return;
    this.#pending = undefined;
    this.#resizing = true;
    const stty = spawn('stty', ['-F', this.#path, 'cols', String(size.columns), 'rows', String(size.rows)], {
      stdio: 'ignore',
    });
    const done = (): void => {
      this.#resizing = false;
      this.#applyPending();
    };
    stty.once('error', done);
    stty.once('exit', done);
  }
}

/**
 * What kills a terminal run if this Node process dies first, `SIGKILL` included: a shell outside
 * the run that reads the session id, then `done`, on a pipe from this process, and kills the run
 * when the pipe ends without `done` (docs/terminal.md, "Cancel means gone on a terminal too").
 */
class Lifeline {
  #input: Writable | undefined;

  constructor(scriptPid: number, cgroupKill: string | undefined) {
    try {
      const watcher = spawn('/bin/sh', ['-c', WATCHER, String(scriptPid), cgroupKill ?? ''], {
        stdio: ['pipe', 'ignore', 'ignore'],
        detached: true,
      });
      watcher.on('error', () => {});
      watcher.unref();
      const input = watcher.stdin as NonNullable<typeof watcher.stdin>;
      input.on('error', () => {}); // the watcher was killed: nothing more to tell it
      (input as Socket).unref();
      this.#input = input;
    } catch {
      // No watcher (no process left to start one): the exit hooks still kill the run.
    }
  }

  know(sid: number): void {
    this.#input?.write(`${sid}\n`);
  }

  /** The session is gone: the watcher exits. */
  release(): void {
    this.#input?.end('done\n');
    this.#input = undefined;
  }
}

/**
 * The watcher of a {@link Lifeline}: `$0` is `script`'s pid, `$1` the `cgroup.kill` file or empty.
 * `members` lists `pid ppid session` of every process, from `/proc/<pid>/stat` (one line with no
 * newline, so `read` fails but fills `line`; parsed after the last `)`: the command's name may
 * hold spaces and parentheses).
 */
const WATCHER = `trap '' HUP INT
script=$0 cgroup_kill=$1 sid=
while read -r word; do
  [ "$word" = done ] && exit 0
  sid=$word
done
members() {
  for stat in /proc/[0-9]*/stat; do
    line=
    read -r line 2>/dev/null < "$stat"
    [ -n "$line" ] || continue
    pid=\${stat#/proc/}
    set -- \${line##*) }
    echo "\${pid%/stat} $2 $4"
  done
}
[ -n "$sid" ] || sid=$(members | while read -r pid ppid session; do
  [ "$ppid" = "$script" ] && [ "$session" = "$pid" ] && echo "$pid"
done)
[ -n "$cgroup_kill" ] && echo 1 2>/dev/null > "$cgroup_kill"
kill -s KILL -- "-$script" 2>/dev/null
[ -n "$sid" ] || exit 0
round=0
while [ $round -lt 20 ]; do
  kill -s KILL -- "-$sid" 2>/dev/null
  left=$(members | while read -r pid ppid session; do
    [ "$session" = "$sid" ] && kill -s KILL "$pid" 2>/dev/null && echo "$pid"
  done)
  [ -n "$left" ] || exit 0
  round=$((round + 1))
done`;
