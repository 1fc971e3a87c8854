import { Observable, Subject } from 'rxjs';
import { SluiceError } from '../../core/errors/sluice-error.js';
import { subscribeWithDemand } from '../../core/subscriber-chain.js';
import { type ExecOptions, exec } from '../../sources/exec.js';
import type { ToolResult } from '../tools/tool.js';
import type { InProcessRunner, RunnerChannel, RunnerLink, RunnerLinkEvent } from './runner.js';

/**
 * A {@link RunnerLink} for an {@link InProcessRunner}, started on the next microtask after
 * `events$` is subscribed. Unsubscribing aborts `channel.signal` and rejects pending `callTool`s.
 */
export function inProcessRunnerLink(runner: InProcessRunner): RunnerLink {
  const waiting = new Map<
    string | number,
    { resolve: (result: ToolResult) => void; reject: (error: unknown) => void }
  >();
  return {
    events$: new Observable<RunnerLinkEvent>((subscriber) => {
      const controller = new AbortController();
      let nextId = 0;
      const line = (stream: 'stdout' | 'stderr', text: string) => {
        if (!controller.signal.aborted) subscriber.next({ type: 'line', stream, text });
      };
      const channel: RunnerChannel = {
        send: (message) => line('stdout', `${JSON.stringify(message)}\n`),
        sendLine: (text) => line('stdout', text.endsWith('\n') ? text : `${text}\n`),
        callTool: (name, args) =>
          new Promise<ToolResult>((resolve, reject) => {
            if (controller.signal.aborted) return reject(stopped());
            const id = `in-process-${nextId++}`;
            waiting.set(id, { resolve, reject });
            channel.send({ op: 'tool_call', id, name, args });
          }),
        signal: controller.signal,
      };
      const exit = (exitCode: number) => {
        if (!controller.signal.aborted) subscriber.next({ type: 'exit', exitCode, signal: null });
        subscriber.complete();
      };
      Promise.resolve()
        .then(() => runner(channel))
        .then(
          (code) => exit(typeof code === 'number' ? code : 0),
          (error: unknown) => {
            line('stderr', `${error instanceof Error ? error.message : String(error)}\n`);
            exit(1);
          },
        );
      return () => {
        controller.abort();
        // One rejection per pending call, without one abort listener per call on the signal.
        const pending = [...waiting.values()];
        waiting.clear();
        for (const call of pending) call.reject(stopped());
      };
    }),
    send(text) {
      const message = JSON.parse(text) as { op?: unknown; id?: unknown; result?: ToolResult };
      if (message.op !== 'tool_result') return;
      const call = waiting.get(message.id as string);
      waiting.delete(message.id as string);
      call?.resolve(message.result as ToolResult);
    },
  };
}

/** Why a pending `callTool` of a runner that was stopped (killed, timed out) rejects. */
function stopped(): SluiceError {
  return new SluiceError('STREAM_CANCELLED', 'The runner was stopped');
}

/** Options of {@link processRunnerLink}. */
interface ProcessRunnerLinkOptions {
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
 * A {@link RunnerLink} for a child process from `argv`, on the `exec` source: lines on,
 * `reject: false`, stdin fed from `send`. Each subscription starts a new child; unsubscribing kills it.
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
