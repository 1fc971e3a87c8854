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
  #escalation: Subscription | undefined;
  #killedBeforeExit = false;

  constructor(
    handle: ProcessHandle,
    signal: NodeJS.Signals,
    forceKillAfterMs: number,
    scheduler: SchedulerLike,
  ) {
    this.#handle = handle;
    this.#signal = signal;
    this.#forceKillAfterMs = forceKillAfterMs;
    this.#scheduler = scheduler;
  }

  /** Whether {@link GroupKiller.kill} was called before the leader exited. */
  get killedBeforeExit(): boolean {
    return this.#killedBeforeExit;
  }

  /** Signals the group now and escalates later; `exited` says whether the leader already exited. */
  kill(exited: boolean): void {
    if (!exited) this.#killedBeforeExit = true;
    this.#handle.killGroup(this.#signal);
    if (this.#escalation === undefined || this.#escalation.closed) {
      this.#escalation = escalateKill(this.#handle, this.#forceKillAfterMs, this.#scheduler);
    }
  }

  /** The run is over: members still alive are killed too; with none, any escalation stops. */
  settle(): void {
    if (this.#handle.groupAlive()) this.kill(true);
    else this.#escalation?.unsubscribe();
  }
}
