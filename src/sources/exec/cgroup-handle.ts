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
 * cgroup it joined before running anything, as docs/containment.md, "What a cgroup catches" tells:
 * `killGroup` also reaches the processes that left the group (`SIGKILL` is `cgroup.kill`),
 * `groupAlive` is the cgroup's `populated`, and `destroy` removes the cgroup once it is empty.
 * With `endOnPidsHit`, a refused fork (`pids.events`) ends the whole run.
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
 * Calls `changed` when the kernel says `file` changed (inotify), without keeping the event loop
 * alive; where the user's inotify watches are used up, every 50 ms instead.
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
 * Makes the cgroup of one run as `containment` asks, before anything is spawned (`undefined`: the
 * process group only). `limits` need a cgroup whatever `containment` says: without one they fail
 * with `LIMIT_UNAVAILABLE`, never run without them.
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
    const message = `Cannot contain the run in a cgroup (\`containment: 'cgroup'\`): ${reason}`;
    throw new SluiceError('CGROUP_UNAVAILABLE', message, { info: { reason } });
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
 * file args…` (why a shell: docs/containment.md, "What a cgroup catches").
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
