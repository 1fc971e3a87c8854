import { setMaxListeners } from 'node:events';
import { Observable, Subject, Subscription } from 'rxjs';
import { MAX_DELAY_MS } from '../../core/max-delay-ms.js';
import { readFunction } from '../../core/read-function.js';
import { readInteger } from '../../core/read-integer.js';
import { rejectUnknownOptions } from '../../core/reject-unknown-options.js';
import { subscribeWithDemand } from '../../core/subscribe-with-demand.js';
import { dispatchToolCall } from '../tools/dispatch-tool-call.js';
import type { ToolChunk } from '../tools/tool-chunk.js';
import { LineJoiner } from './line-joiner.js';
import { parseRunnerLine } from './parse-runner-line.js';
import type { MalformedLine, RunnerExitInfo, RunnerToolCall } from './runner-exit-info.js';
import type { RunnerHandle, RunnerWaitOptions } from './runner-handle.js';
import type { RunnerLink, RunnerLinkEvent } from './runner-link.js';
import type { StartRunnerDeps } from './start-runner-deps.js';
import { toolResultLine } from './tool-result-line.js';

const MAX_STDERR = 64 * 1024;
const DEFAULT_MAX_CHUNKS = 10_000;
const DEFAULT_MAX_MALFORMED = 100;
const DEFAULT_MAX_CONCURRENT_TOOL_CALLS = 8;

/**
 * Starts a runner on `link` now and returns its {@link RunnerHandle}: stdout lines are decoded as
 * messages (malformed ones reported, never fatal), chunks recorded and broadcast in arrival order,
 * tool calls dispatched concurrently (at most `maxConcurrentToolCalls` at once, default 8; the
 * others wait, in call order) with the handle's `pid` and a chunk emitter that records and
 * broadcasts too; their results go back as `{ op: 'tool_result', id, result }` lines. Memory stays
 * bounded whatever the runner writes: at most `maxChunks` chunks (default 10 000) and `maxMalformed`
 * malformed lines (default 100) are kept for {@link RunnerExitInfo}, the rest counted
 * (`chunksDropped`, `malformedDropped`) yet still streamed live. When the runner exits, is killed
 * or times out, running tools are aborted (their processes killed) and waiting ones never start.
 *
 * @example
 * ```ts
 * import { asyncScheduler } from 'rxjs';
 * // internal: createSupervisor().spawn() is the public way
 * const handle = startRunner(inProcessRunnerLink(runner), { pid: 1, registry, scheduler: asyncScheduler });
 * ```
 */
export function startRunner(link: RunnerLink, deps: StartRunnerDeps): RunnerHandle {
  const { pid, registry, kernel, scheduler } = deps;
  const startedAt = scheduler.now();
  const chunks: ToolChunk[] = [];
  const malformed: MalformedLine[] = [];
  const toolCalls: RunnerToolCall[] = [];
  const live = new Subject<ToolChunk>();
  const maxChunks = deps.maxChunks ?? DEFAULT_MAX_CHUNKS;
  const maxMalformed = deps.maxMalformed ?? DEFAULT_MAX_MALFORMED;
  const maxConcurrent = deps.maxConcurrentToolCalls ?? DEFAULT_MAX_CONCURRENT_TOOL_CALLS;
  let chunksDropped = 0;
  let malformedDropped = 0;
  const tools = new AbortController();
  // Each running tool may listen on this signal (the Exec tool does, through `cancelSignal`): at
  // most `maxConcurrent` at once, so say so rather than let Node warn past 10.
  setMaxListeners(Math.max(10, maxConcurrent + 2), tools.signal);
  const waitingCalls: Array<() => void> = [];
  let runningCalls = 0;
  let status: { exitCode: number | null; signal: string | null; timedOut: boolean } | undefined;
  let failure: { error: unknown } | undefined;
  let stderr = '';
  let result: { value: unknown } | undefined;
  let settle!: { resolve: (info: RunnerExitInfo) => void; reject: (error: unknown) => void };
  const done = new Promise<RunnerExitInfo>((resolve, reject) => {
    settle = { resolve, reject };
  });
  done.catch(() => {});

  const emit = (chunk: ToolChunk) => {
    if (status !== undefined || failure !== undefined) return;
    if (chunks.length < maxChunks) chunks.push(chunk);
    else chunksDropped += 1;
    live.next(chunk);
  };
  const finish = (exitCode: number | null, signal: string | null, timedOut: boolean) => {
    if (status !== undefined || failure !== undefined) return;
    lines.flush();
    status = { exitCode, signal, timedOut };
    waitingCalls.length = 0;
    tools.abort();
    sink.unsubscribe();
    live.complete();
    settle.resolve({
      pid,
      exitCode,
      signal,
      timedOut,
      chunks: [...chunks],
      chunksDropped,
      toolCalls: [...toolCalls],
      malformed: [...malformed],
      malformedDropped,
      ...(result === undefined ? {} : { result: result.value }),
      stderr,
      durationMs: Math.max(0, scheduler.now() - startedAt),
    });
  };
  const fail = (error: unknown) => {
    if (status !== undefined || failure !== undefined) return;
    failure = { error };
    waitingCalls.length = 0;
    tools.abort();
    live.error(error);
    settle.reject(error);
  };
  const report = (line: string, problem: string) => {
    const entry = { line: line.length > 200 ? `${line.slice(0, 197)}...` : line, problem };
    if (malformed.length < maxMalformed) malformed.push(entry);
    else malformedDropped += 1;
    try {
      deps.onMalformed?.(entry);
    } catch {
      // A reporter that throws must not stop the runner.
    }
  };
  const onToolCall = (message: Record<string, unknown>) => {
    const id =
      typeof message.id === 'string' || Number.isInteger(message.id) ? (message.id as string | number) : null;
    const call = { id, name: typeof message.name === 'string' ? message.name : null, result: undefined } as {
      -readonly [K in keyof RunnerToolCall]: RunnerToolCall[K];
    };
    toolCalls.push(call);
    const start = () => {
      runningCalls += 1;
      void dispatchToolCall({
        msg: message,
        pid,
        registry,
        kernel,
        onChunk: emit,
        signal: tools.signal,
      }).then((answer) => {
        runningCalls -= 1;
        if (status !== undefined || failure !== undefined) return;
        call.result = answer;
        link.send(toolResultLine(id, answer));
        waitingCalls.shift()?.();
      });
    };
    if (runningCalls < maxConcurrent) start();
    else waitingCalls.push(start);
  };
  const onLine = (text: string, overlong: boolean) => {
    const line = text.replace(/\r?\n$/, '');
    if (overlong) return report(line, 'Line is longer than the largest message accepted');
    if (line.trim() === '') return;
    const parsed = parseRunnerLine(line);
    if (!parsed.ok) return report(line, parsed.problem);
    const message = parsed.message;
    if (message.op === 'chunk') emit(message);
    else if (message.op === 'result') result = { value: message.value };
    else onToolCall(message);
  };
  const onEvent = (event: RunnerLinkEvent) => {
    if (event.type === 'exit') return finish(event.exitCode, event.signal, false);
    if (event.stream === 'stderr') {
      if (stderr.length < MAX_STDERR) stderr += event.text.slice(0, MAX_STDERR - stderr.length);
      return;
    }
    lines.push(event.text, event.partial === true);
  };
  const lines = new LineJoiner(onLine);

  // Held before subscribing, so that an exit arriving synchronously during subscribe closes it at
  // once; it carries no demand: a runner is read as fast as it writes (chunks go to `onChunk`).
  const sink = new Subscription();
  subscribeWithDemand(
    link.events$,
    null,
    { next: onEvent, error: fail, complete: () => finish(null, null, false) },
    sink,
  );

  const chunks$ = new Observable<ToolChunk>((subscriber) => {
    for (const chunk of [...chunks]) {
      if (subscriber.closed) return;
      subscriber.next(chunk);
    }
    if (failure !== undefined) subscriber.error(failure.error);
    else if (status !== undefined) subscriber.complete();
    else return live.subscribe(subscriber);
    return undefined;
  });

  return {
    pid,
    chunks$,
    observe: () => chunks$,
    kill: () => finish(null, null, false),
    wait(options?: RunnerWaitOptions) {
      rejectUnknownOptions(options, ['onChunk', 'timeoutMs']);
      const onChunk = readFunction<(chunk: ToolChunk) => void, undefined>(options, 'onChunk', undefined);
      const timeoutMs = readInteger(options, 'timeoutMs', undefined, { max: MAX_DELAY_MS });
      const listening = chunks$.subscribe({
        next: (chunk) => {
          try {
            onChunk?.(chunk);
          } catch {
            // The caller's callback cannot break the run.
          }
        },
        error: () => {},
      });
      const timer =
        timeoutMs === undefined || timeoutMs === 0
          ? undefined
          : scheduler.schedule(() => finish(null, null, true), timeoutMs);
      return done.finally(() => {
        listening.unsubscribe();
        timer?.unsubscribe();
      });
    },
  };
}
