import { Observable, Subject } from 'rxjs';
import { subscribeWithDemand } from '../../core/subscriber-chain.js';
import { type ExecOptions, exec } from '../../sources/exec.js';
import type { RunnerLink, RunnerLinkEvent } from './runner-link.js';

/** Options of {@link processRunnerLink}. */
export interface ProcessRunnerLinkOptions {
  readonly cwd?: string | undefined;
  readonly env?: Record<string, string | undefined> | undefined;
  /** Longest stdout line accepted as one message, in bytes. */
  readonly maxMessageBytes?: number | undefined;
  readonly scheduler?: ExecOptions['scheduler'];
  readonly port?: ExecOptions['port'];
  /** How the runner process is contained (`exec`'s `containment`, default `'auto'`). */
  readonly containment?: ExecOptions['containment'];
}

/**
 * A {@link RunnerLink} for a child process started from `argv`, on the `exec` source: own process
 * group, lines on, `reject: false`, its stdin fed from `send`. Unsubscribing kills the whole group.
 * Each subscription starts a new child (subscribe once).
 *
 * @example
 * ```ts
 * // internal: createSupervisor().spawn(argv) uses it
 * const link = processRunnerLink(['python3', 'runner.py'], { cwd: '/srv/agent' });
 * ```
 */
export function processRunnerLink(
  argv: readonly string[],
  options: ProcessRunnerLinkOptions = {},
): RunnerLink {
  const [file = '', ...args] = argv;
  const input = new Subject<string>();
  const execOptions: ExecOptions = { lines: true, reject: false, input };
  if (options.cwd !== undefined) execOptions.cwd = options.cwd;
  if (options.env !== undefined) execOptions.env = options.env;
  if (options.maxMessageBytes !== undefined) execOptions.maxLineBytes = options.maxMessageBytes;
  if (options.scheduler !== undefined) execOptions.scheduler = options.scheduler;
  if (options.port !== undefined) execOptions.port = options.port;
  if (options.containment !== undefined) execOptions.containment = options.containment;
  return {
    events$: new Observable<RunnerLinkEvent>((subscriber) =>
      subscribeWithDemand(exec(file, args, execOptions), null, {
        next: (event) => {
          if (event.kind === 'exit') {
            subscriber.next({
              type: 'exit',
              exitCode: event.content.exitCode,
              signal: event.content.signal,
            });
          } else {
            const partial = event.metadata?.partial === true;
            subscriber.next({
              type: 'line',
              stream: event.kind,
              text: event.content,
              ...(partial ? { partial } : {}),
            });
          }
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      }),
    ),
    send: (line) => input.next(line.endsWith('\n') ? line : `${line}\n`),
  };
}
