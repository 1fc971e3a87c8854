import { CliInterruption } from './cli-interruption.js';

/**
 * The part of the CLI's abort `signal` that stops the output at once: it aborts (with the same
 * reason) only for a {@link CliInterruption} whose output was closed (`SIGPIPE`) — nothing more can
 * be written, so the run is unsubscribed without waiting for anything. A fatal signal instead
 * cancels the command through `exec`'s `cancelSignal`, and its last lines and its end are still
 * written. `undefined` when there is no `signal`.
 *
 * @example
 * ```ts
 * await onChunk(events, write, { signal: whenOutputClosed(signal) });
 * ```
 */
export function whenOutputClosed(signal: AbortSignal | undefined): AbortSignal | undefined {
  if (signal === undefined) return undefined;
  const controller = new AbortController();
  const check = () => {
    if (signal.reason instanceof CliInterruption && signal.reason.outputClosed)
      controller.abort(signal.reason);
  };
  if (signal.aborted) check();
  else signal.addEventListener('abort', check, { once: true });
  return controller.signal;
}
