import { watch } from 'node:fs';
import { isSluiceError, SluiceError } from '../../core/errors/sluice-error.js';
import { CgroupRun } from './cgroup-run.js';
import { cgroupSupport } from './cgroup-support.js';
import { forgetAtExit, killAtExit, processStat, signalEach } from './process-group.js';
import type { ContainmentOption, ExecLimits, ExitInfo, ProcessHandle } from './process-port.js';

/** How long the exit hook waits, at most, for a killed run's cgroup to empty before removing it. */
const EXIT_WAIT_MS = 500;

/**
 * Gives a started child's handle (its pid is its process group) the containment of `run`, the
 * cgroup it joined before running anything:
 *
 * - `killGroup(signal)` signals the group as before, and also every process of the cgroup that
 *   left the group (`setsid` daemons, double forks); `SIGKILL` is `cgroup.kill`, which reaches
 *   every process of the run at once, forks in flight included.
 * - `groupAlive()` is the cgroup's `populated`: a daemon in its own session still counts.
 * - `destroy()` releases the pipes as before, and removes the cgroup as soon as it is empty: at
 *   once, or when `cgroup.events` says `populated 0` (an inotify watch on it, which does not keep
 *   the event loop alive, except after a `SIGKILL`, until the run is gone).
 * - With `limits.pids`, a refused fork (`pids.events`) ends the whole run with `cgroup.kill`.
 * - With `cleanup`, the run is killed and its cgroup removed if this Node process exits first.
 */
export function containInCgroup(
  inner: ProcessHandle,
  run: CgroupRun,
  cleanup: boolean,
  endOnPidsHit: boolean,
): ProcessHandle {
  const pgid = inner.pid as number;
  let destroyed = false;
  const watchers: Watch[] = [];
  const endAtExit = (): void => {
    run.kill();
    waitUntilEmpty(run, EXIT_WAIT_MS);
    run.remove();
  };
  const removeIfDone = (): void => {
    // rmdir fails while a process of the run lives: that is the check (no read of cgroup.events).
    if (!destroyed || !run.remove()) return;
    for (const watcher of watchers.splice(0)) watcher.close();
    forgetAtExit(endAtExit);
  };
  const events = watchFile(`${run.path}/cgroup.events`, removeIfDone);
  watchers.push(events);
  if (endOnPidsHit) {
    watchers.push(
      watchFile(`${run.path}/pids.events`, () => {
        if (run.limitHit() === 'pids') run.kill();
      }),
    );
  }
  if (cleanup) killAtExit(endAtExit);
  return {
    ...inner,
    pid: inner.pid,
    killGroup: (signal) => {
      inner.killGroup(signal);
      if (signal === 'SIGKILL') {
        run.kill();
        events.ref(); // a killed run ends soon: wait for it, and remove its cgroup
      } else {
        // The group got it already: the processes of the run that left it.
        signalEach(
          run.members().filter((pid) => processStat(pid)?.pgrp !== pgid),
          signal,
        );
      }
    },
    groupAlive: () => {
      const alive = run.populated();
      if (!alive) {
        inner.groupAlive(); // the handle below learns that its processes are gone too
        removeIfDone();
      }
      return alive;
    },
    destroy: () => {
      inner.destroy();
      destroyed = true;
      removeIfDone();
    },
    containment: () => ({ containment: 'cgroup', usage: run.usage(), limitHit: run.limitHit() }),
  };
}

/** A watch on a cgroup file: `ref()` makes it keep the event loop alive. */
interface Watch {
  close(): void;
  ref(): void;
}

/**
 * Calls `changed` when the kernel says `file` changed (an inotify watch: a cgroup's `.events`
 * files notify on every change), without keeping the event loop alive. Where no watch can be
 * had (the inotify watches of this user are used up), it looks every 50 ms instead.
 */
function watchFile(file: string, changed: () => void): Watch {
  try {
    const watcher = watch(file, { persistent: false }, changed);
    watcher.on('error', () => {});
    return watcher;
  } catch {
    const timer = setInterval(changed, 50);
    timer.unref();
    return { close: () => clearInterval(timer), ref: () => void timer.ref() };
  }
}

/** Blocks (this is for the exit hook, where nothing asynchronous runs any more) until `run` is empty or `ms` passed. */
function waitUntilEmpty(run: CgroupRun, ms: number): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; run.populated() && waited < ms; waited += 2) Atomics.wait(pause, 0, 0, 2);
}

/**
 * Makes the cgroup of one run as `containment` asks, before anything is spawned:
 *
 * - `'group'`: none (process group only);
 * - `'auto'`: one where {@link cgroupSupport} says cgroups work, none elsewhere;
 * - `'cgroup'`: one, or a `SluiceError` with code `CGROUP_UNAVAILABLE` saying why not.
 *
 * `limits` need a cgroup whatever `containment` says: without one they fail with
 * `LIMIT_UNAVAILABLE` (as do limits whose controller is not enabled, see {@link CgroupRun.create}),
 * never run without them.
 */
export function openCgroup(
  containment: ContainmentOption,
  limits: ExecLimits | undefined,
): CgroupRun | undefined {
  if (containment === 'group') return undefined;
  const support = cgroupSupport();
  if ('unavailable' in support) return refuse(containment, limits, support.unavailable);
  try {
    return CgroupRun.create(support.base, limits);
  } catch (error) {
    if (isSluiceError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return refuse(containment, limits, `cannot create a cgroup in ${support.base} (${code})`);
  }
}

/** Without a cgroup: the typed error `limits` or `containment: 'cgroup'` call for, else `undefined` (the process group). */
function refuse(containment: ContainmentOption, limits: ExecLimits | undefined, reason: string): undefined {
  if (limits !== undefined) {
    throw new SluiceError(
      'LIMIT_UNAVAILABLE',
      `Cannot apply the \`limits\` option (${Object.keys(limits).join(', ')}): they need a cgroup, and ${reason}`,
      { info: { limits, reason } },
    );
  }
  if (containment === 'cgroup') {
    throw new SluiceError(
      'CGROUP_UNAVAILABLE',
      `Cannot contain the run in a cgroup (\`containment: 'cgroup'\`): ${reason}`,
      {
        info: { reason },
      },
    );
  }
  return undefined;
}

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
 */
export function cgroupJoinFailed(exit: ExitInfo, stderr: string): boolean {
  return (
    exit.exitCode === JOIN_FAILED &&
    stderr.startsWith(JOIN_FAILED_LINE) &&
    stderr.indexOf('\n') === stderr.length - 1
  );
}
