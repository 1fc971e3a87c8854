import { killProcessGroup } from './process-group.js';

const live = new Set<number>();
let installed = false;

function killAll(): void {
  for (const pgid of live) {
    try {
      killProcessGroup(pgid, 'SIGKILL');
    } catch {
      // nothing more can be done while exiting
    }
  }
  live.clear();
}

/**
 * Remembers a process group sluice started, so that it is `SIGKILL`ed if this Node process exits
 * while the group may still be alive (a `process.on('exit')` hook, installed once). Call
 * {@link untrackProcessGroup} once the group is known to be gone. Death by an uncaught signal
 * runs no `exit` hook: a group that outlives that is not covered.
 *
 * @example
 * ```ts
 * trackProcessGroup(child.pid);
 * ```
 */
export function trackProcessGroup(pgid: number): void {
  if (!installed) {
    installed = true;
    process.on('exit', killAll);
  }
  live.add(pgid);
}

/**
 * Forgets a group remembered by {@link trackProcessGroup}.
 *
 * @example
 * ```ts
 * untrackProcessGroup(child.pid);
 * ```
 */
export function untrackProcessGroup(pgid: number): void {
  live.delete(pgid);
}
