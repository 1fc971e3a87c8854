import { constants } from 'node:os';
import {
  catchError,
  concatWith,
  defer,
  EMPTY,
  filter,
  type MonoTypeOperatorFunction,
  of,
  tap,
  throwError,
} from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { isCancelledError } from '../core/errors/cancelled-error.js';

/**
 * Why the CLI stops a run before it ended: a fatal signal, or `SIGPIPE` for a reader that closed
 * stdout. It is the `reason` of the abort signal `main.ts` hands the run; its exit status is 128 +
 * the signal's number (docs/cli.md, "Signals and exit codes").
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

/** The {@link CliInterruption} that `signal` was aborted with, if any. */
export function interruptionOf(signal: AbortSignal | undefined): CliInterruption | undefined {
  const reason: unknown = signal?.reason;
  return reason instanceof CliInterruption ? reason : undefined;
}

/**
 * `onChunk`'s `signal` for a run the CLI shows: aborted (with the same reason) only when stdout
 * was closed (`SIGPIPE`) — nothing more can be written, so the run is unsubscribed at once. A fatal
 * signal instead cancels the command through `exec`'s `cancelSignal`, and its last lines and its
 * end are still written.
 */
export function stopOnClosedOutput(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  if (signal === undefined) return {};
  const controller = new AbortController();
  const check = () => {
    if (interruptionOf(signal)?.outputClosed) controller.abort(signal.reason);
  };
  if (signal.aborted) check();
  else signal.addEventListener('abort', check, { once: true });
  return { signal: controller.signal };
}

/**
 * Wraps `publish` (a `toRunStore`, or a registry's `publish`) so that when sluice is interrupted
 * the published run ends for its followers with `{ kind: 'end', metadata: { reason: 'cancelled',
 * by: 'terminal', signal } }`, while the view downstream still gets the `CancelledError`. Any other
 * error is published as the run's failure.
 */
export function publishInterruptible<T extends ChunkEvent<unknown>>(
  publish: MonoTypeOperatorFunction<T>,
  signal: AbortSignal | undefined,
): MonoTypeOperatorFunction<T> {
  return (source) =>
    defer(() => {
      let next = 0;
      let interrupted: { error: unknown; sentinel: T } | undefined;
      return source.pipe(
        tap((event) => {
          next = event.sequence + 1;
        }),
        catchError((error: unknown) => {
          const reason = interruptionOf(signal);
          if (!isCancelledError(error) || reason === undefined) return throwError(() => error);
          const metadata = { reason: 'cancelled', by: 'terminal', signal: reason.signal };
          const sentinel = {
            sequence: next,
            kind: 'end',
            content: null,
            metadata,
            isFinal: true,
          } as unknown as T;
          interrupted = { error, sentinel };
          return of(sentinel);
        }),
        publish,
        filter((event) => event !== interrupted?.sentinel),
        concatWith(defer(() => (interrupted === undefined ? EMPTY : throwError(() => interrupted?.error)))),
      );
    });
}
