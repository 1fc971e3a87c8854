import { type SchedulerLike, Subscription } from 'rxjs';
import type { ProcessHandle } from './process-port.js';

/** The pauses between two looks at a signalled group: quick at first, then every 50 ms. */
const STEPS_MS = [1, 2, 4, 8, 16, 32, 50];

/**
 * The second half of the kill sequence, after `killSignal` was sent to `handle`'s group: watches
 * the group on `scheduler` and `SIGKILL`s it if any member is still alive `forceKillAfterMs`
 * later. The watch ends as soon as no member is alive (looking after 1, 2, 4, … ms, then every
 * 50 ms), so nothing stays scheduled once the group is gone: a program whose last run was
 * cancelled exits at once, not `forceKillAfterMs` later. Unsubscribing the returned subscription
 * stops the watch. With `onGone`, the watch also reports when the group is seen gone — after a
 * `SIGKILL` too, for which it looks on (every 50 ms) for another `forceKillAfterMs` at most.
 *
 * @example
 * ```ts
 * handle.killGroup('SIGTERM');
 * const watch = escalateKill(handle, 2000, asyncScheduler);
 * ```
 */
export function escalateKill(
  handle: ProcessHandle,
  forceKillAfterMs: number,
  scheduler: SchedulerLike,
  onGone?: () => void,
): Subscription {
  const watch = new Subscription();
  let deadline = scheduler.now() + forceKillAfterMs;
  let forced = false;
  let step = 0;
  const next = (): void => {
    const pause = Math.min(STEPS_MS[step] ?? 50, Math.max(0, deadline - scheduler.now()));
    step += 1;
    watch.add(scheduler.schedule(look, pause));
  };
  const look = (): void => {
    if (watch.closed) return;
    if (!handle.groupAlive()) {
      onGone?.();
      watch.unsubscribe();
      return;
    }
    if (deadline - scheduler.now() > 0) {
      next();
      return;
    }
    if (!forced) handle.killGroup('SIGKILL');
    if (forced || onGone === undefined) {
      watch.unsubscribe();
      return;
    }
    forced = true;
    deadline = scheduler.now() + forceKillAfterMs;
    step = STEPS_MS.length;
    next();
  };
  next(); // the signal was just sent: the first look comes a millisecond later
  return watch;
}
