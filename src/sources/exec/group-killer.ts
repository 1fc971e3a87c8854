import { type SchedulerLike, Subscription } from 'rxjs';
import type { ProcessHandle } from './process-port.js';

/**
 * Kills the process group of one exec run: `killSignal` now, then `SIGKILL` `forceKillAfterMs`
 * later to whatever is still alive ({@link escalateKill}; one escalation at a time). Remembers
 * whether it killed before the leader exited, which the result reports (`rlimitHit` tells a limit
 * from sluice's own kill by it).
 */
export class GroupKiller {
  readonly #handle: ProcessHandle;
  readonly #signal: NodeJS.Signals;
  readonly #forceKillAfterMs: number;
  readonly #scheduler: SchedulerLike;
  #onGone: ((killMs: number) => void) | undefined;
  #escalation: Subscription | undefined;
  #killedBeforeExit = false;
  #killedAt: number | undefined;

  /** `onGone` (tracing) hears once, with the milliseconds since the first kill, that the group is gone. */
  constructor(
    handle: ProcessHandle,
    signal: NodeJS.Signals,
    forceKillAfterMs: number,
    scheduler: SchedulerLike,
    onGone?: (killMs: number) => void,
  ) {
    this.#handle = handle;
    this.#signal = signal;
    this.#forceKillAfterMs = forceKillAfterMs;
    this.#scheduler = scheduler;
    this.#onGone = onGone;
  }

  /** Whether {@link GroupKiller.kill} was called before the leader exited. */
  get killedBeforeExit(): boolean {
    return this.#killedBeforeExit;
  }

  /** Signals the group now and escalates later; `exited` says whether the leader already exited. */
  kill(exited: boolean): void {
    if (!exited) this.#killedBeforeExit = true;
    this.#killedAt ??= this.#scheduler.now();
    this.#handle.killGroup(this.#signal);
    if (this.#escalation === undefined || this.#escalation.closed) {
      const onGone = this.#onGone === undefined ? undefined : () => this.#gone();
      this.#escalation = escalateKill(this.#handle, this.#forceKillAfterMs, this.#scheduler, onGone);
    }
  }

  /** The run is over: members still alive are killed too; with none, any escalation stops. */
  settle(): void {
    if (this.#handle.groupAlive()) this.kill(true);
    else {
      if (this.#killedAt !== undefined) this.#gone();
      this.#escalation?.unsubscribe();
    }
  }

  /** Calls `fn` once the watch of the group ends (at once when none runs). */
  afterWatch(fn: () => void): void {
    if (this.#escalation === undefined || this.#escalation.closed) fn();
    else this.#escalation.add(fn);
  }

  #gone(): void {
    const onGone = this.#onGone;
    const killedAt = this.#killedAt;
    if (onGone === undefined || killedAt === undefined) return;
    this.#onGone = undefined;
    onGone(this.#scheduler.now() - killedAt);
  }
}

/** The pauses between two looks at a signalled group: quick at first, then every 50 ms. */
const STEPS_MS = [1, 2, 4, 8, 16, 32, 50];

/**
 * The second half of the kill sequence, after `killSignal` was sent to `handle`'s group: watches
 * the group and `SIGKILL`s it if any member is still alive `forceKillAfterMs` later. The watch
 * ends as soon as the group is gone, so a program whose last run was cancelled exits at once.
 * With `onGone`, it also reports when the group is seen gone, looking on after a `SIGKILL` for
 * another `forceKillAfterMs` at most.
 */
function escalateKill(
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
