import { Observable } from 'rxjs';
import { SluiceError } from '../../core/errors/sluice-error.js';
import type { ToolResult } from '../tools/tool-result.js';
import type { InProcessRunner, RunnerChannel } from './runner-channel.js';
import type { RunnerLink, RunnerLinkEvent } from './runner-link.js';

/**
 * A {@link RunnerLink} for an {@link InProcessRunner}: the runner starts (on the next microtask)
 * when `events$` is subscribed; what it sends becomes stdout lines, what the supervisor sends is
 * parsed back into `tool_result` messages for `callTool`. Unsubscribing aborts `channel.signal`
 * and rejects pending `callTool`s.
 *
 * @example
 * ```ts
 * // internal: createSupervisor().spawn(runner) uses it
 * const link = inProcessRunnerLink(async (channel) => channel.send({ op: 'result', value: 1 }));
 * ```
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
