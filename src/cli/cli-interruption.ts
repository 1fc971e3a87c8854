import { constants } from 'node:os';

/**
 * Why the CLI stops a run before it ended: a fatal signal sluice received (`SIGINT`, `SIGTERM`,
 * `SIGHUP`, `SIGQUIT`), or `SIGPIPE` for a reader that closed sluice's stdout (an `EPIPE`, as
 * `| head -1` does). It is the `reason` of the abort signal `main.ts` hands the run, and says the
 * exit status: 128 + the signal's number (130 for `SIGINT`, 141 for a closed output), the
 * convention of shells.
 *
 * @example
 * ```ts
 * controller.abort(new CliInterruption('SIGINT'));
 * new CliInterruption('SIGTERM').exitCode; // 143
 * ```
 */
export class CliInterruption extends Error {
  readonly signal: NodeJS.Signals;

  constructor(signal: NodeJS.Signals) {
    super(signal === 'SIGPIPE' ? 'the output pipe was closed' : `sluice was interrupted by ${signal}`);
    this.signal = signal;
  }

  override get name(): string {
    return 'CliInterruption';
  }

  /** 128 + the signal's number. */
  get exitCode(): number {
    return 128 + (constants.signals[this.signal] ?? 0);
  }

  /** Whether the reader of stdout went away: nothing more can be written there. */
  get outputClosed(): boolean {
    return this.signal === 'SIGPIPE';
  }
}
