import { Observable, type Subscriber } from 'rxjs';
import { demandOf } from '../core/subscriber-chain.js';
import { readExecOptions } from './exec/exec-options.js';
import { subscribeExec } from './exec/exec-process.js';
import type { ExecEvent, ExecOptions } from './exec/exec-types.js';
import { childProcessPort } from './exec/spawn-child.js';

export type { Containment, ExecResult, ExecUsage, LimitName, RlimitName } from './exec/exec-result.js';
export type { ExecEvent, ExecExitEvent, ExecLineEvent, ExecOptions } from './exec/exec-types.js';
export type {
  ContainmentOption,
  ContainmentReport,
  ExecLimits,
  ExecRlimits,
  ExitInfo,
  OutputStream,
  ProcessEvents,
  ProcessHandle,
  ProcessPort,
  SpawnRequest,
} from './exec/process-port.js';
export { childProcessPort } from './exec/spawn-child.js';

/**
 * Runs a command as a cold Observable: nothing is spawned until subscribe, and each subscription
 * is its own run, in its own process group — and, where this process may make one (Linux, cgroup
 * v2, root or a delegated subtree), its own cgroup, which also holds the descendants that leave
 * the group (`containment`, see docs/containment.md).
 *
 * - One event per line of stdout and stderr (`kind` `'stdout'`/`'stderr'`, the decoded UTF-8 line
 *   including its `\n`), in arrival order across both pipes; a line longer than `maxLineBytes` comes
 *   in pieces marked `metadata.partial`; `lines: false` emits one event per read instead;
 *   `encoding: 'buffer'` gives the bytes as the child wrote them (`Uint8Array`) instead of text.
 * - Then exactly one final `exit` event with the {@link ExecResult} — after every byte the child
 *   wrote. With `reject: true` (default) a non-zero exit, a death by signal (`EXEC_FAILED`) or a
 *   timeout (`TIMEOUT`) errors instead, with an `ExecError` carrying the same result. A command
 *   that cannot start errors with a `SpawnError` (`SPAWN_FAILED`, `info.errno` the OS code).
 * - Cancel = unsubscribe: the whole group gets `killSignal`, then `SIGKILL` after
 *   `forceKillAfterMs` while any member is alive. `timeoutMs` does the same. In a cgroup, every
 *   process of the run does, and the `SIGKILL` is `cgroup.kill`.
 * - Backpressure: a consumer's demand ({@link demandOf}, or `options.demand`) pauses the
 *   reading of the pipes, so the child blocks on its full pipe.
 *
 * Options are validated when `exec` is called: a bad one throws a `TypeError` naming it.
 *
 * @example
 * ```ts
 * import { exec } from 'sluice';
 * exec('sh', ['-c', 'echo out; echo err >&2'], { timeoutMs: 10_000 }).subscribe((event) => {
 *   if (event.kind === 'exit') console.log('exit code', event.content.exitCode);
 *   else process.stdout.write(`[${event.kind}] ${event.content}`);
 * });
 * ```
 */
export function exec(
  file: string,
  args: readonly string[] | undefined,
  options: ExecOptions & { readonly encoding: 'buffer' },
): Observable<ExecEvent<Uint8Array>>;
/**
 * {@link exec} with text lines (the default `encoding: 'utf8'`).
 *
 * @example
 * ```ts
 * import { exec } from 'sluice';
 * exec('ls', ['-l']).subscribe((event) => event.kind !== 'exit' && console.log(event.content.trimEnd()));
 * ```
 */
export function exec(file: string, args?: readonly string[], options?: ExecOptions): Observable<ExecEvent>;
export function exec(
  file: string,
  args?: readonly string[],
  options?: ExecOptions,
): Observable<ExecEvent<string | Uint8Array>> {
  const resolved = readExecOptions(file, args, options);
  const port = resolved.port ?? childProcessPort;
  return new Observable<ExecEvent<string | Uint8Array>>((subscriber) => {
    const demand = resolved.demand ?? demandOf(subscriber);
    return subscribeExec(resolved, port, subscriber as Subscriber<ExecEvent>, demand);
  });
}
