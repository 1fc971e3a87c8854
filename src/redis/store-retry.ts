import type { SchedulerLike } from 'rxjs';

/** How long a writer or a reader waits between two tries while Redis fails over, in ms. */
const RETRY_DELAY_MS = 200;

/**
 * The retry budget of one writer or reader: tries go on while the first failure since the last
 * success is less than `failAfterMs` old (on `scheduler`'s clock). Internal.
 */
export class StoreRetry {
  readonly #scheduler: SchedulerLike;
  readonly #failAfterMs: number;
  #since: number | undefined;

  constructor(scheduler: SchedulerLike, failAfterMs: number) {
    this.#scheduler = scheduler;
    this.#failAfterMs = failAfterMs;
  }

  /**
   * Whether a failed Redis command may be tried again: a lost connection, a Cluster that is failing
   * over (`CLUSTERDOWN`, `TRYAGAIN`, `READONLY`, `LOADING`, too many redirections) — but not a
   * refusal by a run script (`GONE`, `NOTOWNER`, `ENDED`, `SEQUENCE`, `EXISTS`), a bad command, or a
   * command that already waited the store's whole failure bound (`Command timed out`), nor one
   * of a connection that will not reconnect (`client`'s status `end`: closed, or given up).
   */
  static retryable(error: unknown, client: { readonly status: string }): boolean {
    if (client.status === 'end') return false;
    const message = error instanceof Error ? error.message : String(error);
    if (/^(ERR )?(GONE|NOTOWNER|ENDED|SEQUENCE|EXISTS|NOSCRIPT)/.test(message)) return false;
    if (/Command timed out/.test(message)) return false;
    return /Connection is closed|ECONNREFUSED|ECONNRESET|EPIPE|CLUSTERDOWN|TRYAGAIN|READONLY|LOADING|MASTERDOWN|Too many Cluster redirections|Failed to refresh slots cache|None of startup nodes is available/.test(
      message,
    );
  }

  /** A command succeeded: the budget is whole again. */
  succeeded(): void {
    this.#since = undefined;
  }

  /** A command failed with a retryable error: whether another try is within the budget. */
  failed(): boolean {
    const now = this.#scheduler.now();
    this.#since ??= now;
    return now - this.#since < this.#failAfterMs;
  }

  /** Resolves after a short delay (200 ms) on the scheduler. */
  pause(): Promise<void> {
    return new Promise((resolve) => {
      this.#scheduler.schedule(() => resolve(), RETRY_DELAY_MS);
    });
  }
}
