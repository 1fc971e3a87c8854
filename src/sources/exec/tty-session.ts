import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { trackProcessGroup, untrackProcessGroup } from './exit-cleanup.js';
import { killProcessGroup, liveProcesses, processStat } from './process-group.js';
import type { ProcessHandle } from './process-port.js';
import type { TtySize } from './tty-command.js';

/**
 * Gives the handle of a `script` process ({@link ttyCommand}) the terminal session it started
 * (docs/terminal.md, "Cancel means gone on a terminal too"). The command runs in a session of its
 * own, outside `script`'s process group, so:
 *
 * - `killGroup(signal)` signals `script`'s group as before, and every process of the session;
 * - `groupAlive()` is true while either has a live process;
 * - `resize(size)` sets the terminal's size (`stty -F`), and the kernel sends `SIGWINCH` to the
 *   terminal's foreground process group; resizes are applied one at a time, the last one wins;
 * - with `cleanup`, the session is killed too if this Node process ends first.
 *
 * The session id and the terminal's path come on `report` (the shell inside writes them before it
 * becomes the command). Until they have come, the session is found as `script`'s child.
 *
 * @example
 * ```ts
 * const handle = onTerminal(spawned, child.stdio[3] as Readable, true);
 * handle.resize?.({ columns: 120, rows: 40 });
 * ```
 */
export function onTerminal(inner: ProcessHandle, report: Readable, cleanup: boolean): ProcessHandle {
  const scriptPid = inner.pid as number;
  const session = new TerminalSession(scriptPid, cleanup);
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
      inner.killGroup(signal);
      session.kill(signal);
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
  readonly #cleanup: boolean;
  #sid: number | undefined;
  #path: string | undefined;
  /** The size still to apply, and whether an `stty` is running. */
  #pending: TtySize | undefined;
  #resizing = false;

  constructor(scriptPid: number, cleanup: boolean) {
    this.#scriptPid = scriptPid;
    this.#cleanup = cleanup;
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

  kill(signal: NodeJS.Signals): void {
    const sid = this.#sid ?? this.#findSession();
    if (sid === undefined) return;
    // The leader's group first (forks in flight), then members that made groups of their own.
    const gone = !killProcessGroup(sid, signal);
    for (const pid of liveProcesses((stat) => stat.session === sid && stat.pgrp !== sid) ?? []) {
      try {
        process.kill(pid, signal);
      } catch {
        // Gone since it was listed.
      }
    }
    if (gone && signal === 'SIGKILL') untrackProcessGroup(sid);
  }

  alive(): boolean {
    const sid = this.#sid ?? this.#findSession();
    if (sid === undefined) return false;
    const alive = (liveProcesses((stat) => stat.session === sid, true) ?? []).length > 0;
    if (!alive) untrackProcessGroup(sid);
    return alive;
  }

  resize(size: TtySize): void {
    this.#pending = size;
    this.#applyPending();
  }

  #know(sid: number): void {
    this.#sid = sid;
    if (this.#cleanup) trackProcessGroup(sid);
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
