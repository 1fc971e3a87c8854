import type { SchedulerLike, Subscription } from 'rxjs';
import { escalateKill } from './escalate-kill.js';
import type { ProcessHandle } from './process-port.js';

/**
 * Kills the process group of one exec run: `killSignal` now, then `SIGKILL` `forceKillAfterMs`
 * later to whatever is still alive ({@link escalateKill}; one escalation at a time). Remembers
 * whether it killed before the leader exited, which the result reports (`rlimitHit` tells a limit
 * from sluice's own kill by it).
 *
 * @example
 * ```ts
 * const killer = new GroupKiller(handle, 'SIGTERM', 2_000, scheduler);
 * killer.kill(false); // a timeout: the leader has not exited
 * killer.settle(); // the run finished: kill what is left of the group, or stop escalating
 * ```
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
