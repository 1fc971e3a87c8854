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
import { CliInterruption } from './cli-interruption.js';

/**
 * Wraps `publish` (a `toRunStore`, or a run registry's `publish` operator) so that a run the CLI
 * publishes ends *for its followers* with the cancelled sentinel `{ kind: 'end', metadata:
 * { reason: 'cancelled', by: 'terminal', signal } }` when sluice is interrupted (Ctrl-C: `exec`
 * errors with a `CancelledError`) — pages then say "Cancelled from the terminal", `sluice follow`
 * exits 130 — while the terminal view downstream still gets the `CancelledError` itself (its
 * summary and its exit code, 128 + the signal). Any other error is published as the run's failure.
 *
 * @example
 * ```ts
 * events.pipe(publishInterruptible(toRunStore(store, 'build-7'), signal)).subscribe(view);
 * ```
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
          const reason: unknown = signal?.reason;
          if (!isCancelledError(error) || !(reason instanceof CliInterruption))
            return throwError(() => error);
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
