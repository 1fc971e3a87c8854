import type { Subscriber, TeardownLogic } from 'rxjs';
import type { Demand } from '../../core/demand.js';
import { cancelledError } from './exec-failure.js';
import type { ResolvedExecOptions } from './exec-options.js';
import { ExecRun } from './exec-run.js';
import type { ExecEvent } from './exec-types.js';
import type { ProcessPort } from './process-port.js';

/**
 * One subscription of `exec`: spawns through `port`, turns reads into sequenced line events,
 * honours `demand`, and ends with the `exit` event (or an error). The rules:
 *
 * - **No loss**: the final event comes only after the child exited AND both pipes ended AND
 *   every line was delivered.
 * - **Demand**: the lines wait in a {@link DemandQueue} gated by `demand`. While it is paused the
 *   pipes are not read (the child blocks on its full pipe) and the lines already split from the
 *   last read wait in the queue; reading resumes only once that queue is empty and demand flows. Lines
 *   of both pipes keep their arrival order. The final `exit` event waits for demand like a line;
 *   an error comes once every line before it was delivered.
 * - **Pipes held open after the leader exited** (a background grandchild inherited them): reading
 *   goes on for `forceKillAfterMs`, then the rest of the group gets `killSignal` (then `SIGKILL`),
 *   which closes the pipes and ends the run; the result is the leader's. A holder outside the group
 *   (it called `setsid`) keeps the stream open until `timeoutMs` or unsubscribe.
 * - **A run ends with its group**: members still alive when the run finishes are killed too.
 * - **Cancel means gone**: unsubscribing sends `killSignal` to the group, releases the pipes, and
 *   `SIGKILL`s the group `forceKillAfterMs` later if any member is still alive — that watch
 *   outlives the subscription on purpose, and ends as soon as the group is gone
 *   ({@link GroupKiller}), so it keeps the event loop alive only while a member is.
 *
 * The run's life is the steps of {@link ExecRun} (src/sources/exec/exec-run.ts).
 *
 * @example
 * ```ts
 * new Observable<ExecEvent>((subscriber) => runExec(resolved, childProcessPort, subscriber, demandOf(subscriber)));
 * ```
 */
export function runExec(
  options: ResolvedExecOptions,
  port: ProcessPort,
  subscriber: Subscriber<ExecEvent>,
  demand: Demand | undefined,
): TeardownLogic {
  const { cancelSignal } = options;
  if (cancelSignal?.aborted) {
    subscriber.error(cancelledError(cancelSignal.reason, undefined, options.file));
    return undefined;
  }
  const run = new ExecRun(options, subscriber, demand);
  run.start(port);
  return () => run.unsubscribe();
}
