import { watch } from 'node:fs';
import type { CgroupRun } from './cgroup-run.js';
import { trackCgroup, untrackCgroup } from './exit-cleanup.js';
import { processStat } from './process-group.js';
import type { ProcessHandle } from './process-port.js';

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
 *
 * @example
 * ```ts
 * const handle = containInCgroup(spawned, run, true, false);
 * handle.killGroup('SIGKILL'); // cgroup.kill
 * ```
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
    untrackCgroup(endAtExit);
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
  if (cleanup) trackCgroup(endAtExit);
  return {
    ...inner,
    pid: inner.pid,
    killGroup: (signal) => {
      inner.killGroup(signal);
      if (signal === 'SIGKILL') {
        run.kill();
        events.ref(); // a killed run ends soon: wait for it, and remove its cgroup
      } else {
        signalOutsiders(run, pgid, signal);
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

/** Sends `signal` to the processes of `run` outside group `pgid` (the group itself got it already). */
function signalOutsiders(run: CgroupRun, pgid: number, signal: NodeJS.Signals): void {
  for (const pid of run.members()) {
    if (processStat(pid)?.pgrp === pgid) continue;
    try {
      process.kill(pid, signal);
    } catch {
      // Gone since it was listed.
    }
  }
}

/** Blocks (this is for the exit hook, where nothing asynchronous runs any more) until `run` is empty or `ms` passed. */
function waitUntilEmpty(run: CgroupRun, ms: number): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; run.populated() && waited < ms; waited += 2) Atomics.wait(pause, 0, 0, 2);
}
