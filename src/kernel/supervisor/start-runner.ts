import { setMaxListeners } from 'node:events';
import { Observable, Subject, type Subscriber, Subscription } from 'rxjs';
import { deferred } from '../../core/deferred.js';
import { MAX_DELAY_MS } from '../../core/max-delay-ms.js';
import { readFunction } from '../../core/read-function.js';
import { readInteger } from '../../core/read-integer.js';
import { rejectUnknownOptions } from '../../core/reject-unknown-options.js';
import { subscribeWithDemand } from '../../core/subscriber-chain.js';
import {
  errorTypeOf,
  type RunSpan,
  type SpanEndDetails,
  type SpanEndReason,
  startRunSpan,
} from '../../trace/run-span.js';
import { dispatchToolCall } from '../tools/dispatch-tool-call.js';
import type { ToolChunk } from '../tools/tool.js';
import type {
  RunnerExitInfo,
  RunnerHandle,
  RunnerLink,
  RunnerLinkEvent,
  RunnerWaitOptions,
  StartRunnerDeps,
} from './runner.js';
import { LineJoiner, parseRunnerLine, toolResultLine } from './runner-line.js';
import { RunnerRecord, type RunnerStatus } from './runner-record.js';

const DEFAULT_MAX_CHUNKS = 10_000;
const DEFAULT_MAX_MALFORMED = 100;
const DEFAULT_MAX_CONCURRENT_TOOL_CALLS = 8;

/**
 * Starts a runner on `link` now: stdout lines decoded as messages (malformed ones reported, never
 * fatal), chunks recorded and broadcast, tool calls dispatched at most `maxConcurrentToolCalls` at
 * once, in call order, answered with `tool_result` lines. When it ends, running tools are aborted
 * and waiting ones never start.
 */
export function startRunner(link: RunnerLink, deps: StartRunnerDeps): RunnerHandle {
  return new Supervision(link, deps).start();
}

/** One runner's life: its link's events in, its record and live chunks out, its tool calls run. */
class Supervision {
  readonly #record: RunnerRecord;
  readonly #calls: ToolCallQueue;
  readonly #tools = new AbortController();
  readonly #live = new Subject<ToolChunk>();
  readonly #lines = new LineJoiner((text, overlong) => this.#onLine(text, overlong));
  readonly #done = deferred<RunnerExitInfo>();
  readonly #startedAt: number;
  #status: RunnerStatus | undefined;
  #failure: { error: unknown } | undefined;
  #sink: Subscription | undefined;
  /** The runner's span: its link (a child process's `exec` span) and its tool calls run under it. */
  readonly #span: RunSpan;

  constructor(
    private readonly link: RunnerLink,
    private readonly deps: StartRunnerDeps,
  ) {
    this.#startedAt = deps.scheduler.now();
    this.#span = startRunSpan('runner', `runner ${deps.name ?? 'in-process'}`, {
      'sluice.kernel.pid': deps.pid,
    });
    this.#record = new RunnerRecord(
      deps.maxChunks ?? DEFAULT_MAX_CHUNKS,
      deps.maxMalformed ?? DEFAULT_MAX_MALFORMED,
    );
    const maxConcurrent = deps.maxConcurrentToolCalls ?? DEFAULT_MAX_CONCURRENT_TOOL_CALLS;
    this.#calls = new ToolCallQueue(maxConcurrent);
    // Each running tool may listen on this signal (the Exec tool does, through `cancelSignal`): at
    // most `maxConcurrent` at once, so say so rather than let Node warn past 10.
    setMaxListeners(Math.max(10, maxConcurrent + 2), this.#tools.signal);
    this.#done.promise.catch(() => {});
  }

  get #ended(): boolean {
    return this.#status !== undefined || this.#failure !== undefined;
  }

  start(): RunnerHandle {
    // Held before subscribing, so that an exit arriving synchronously during subscribe closes it at
    // once; it carries no demand: a runner is read as fast as it writes (chunks go to `onChunk`).
    this.#sink = new Subscription();
    this.#span.within(() =>
      subscribeWithDemand(
        this.link.events$,
        null,
        {
          next: (event: RunnerLinkEvent) => this.#onEvent(event),
          error: (error: unknown) => this.#fail(error),
          complete: () => this.#finish({ exitCode: null, signal: null, timedOut: false }, 'complete'),
        },
        this.#sink,
      ),
    );
    const chunks$ = new Observable<ToolChunk>((subscriber) => this.#replayThenFollow(subscriber));
    return {
      pid: this.deps.pid,
      chunks$,
      observe: () => chunks$,
      kill: () => this.#finish({ exitCode: null, signal: null, timedOut: false }, 'cancel'),
      wait: (options?: RunnerWaitOptions) => this.#wait(chunks$, options),
    };
  }

  /** The chunks so far, then the live ones (or the end, if the runner has ended). */
  #replayThenFollow(subscriber: Subscriber<ToolChunk>) {
    for (const chunk of this.#record.chunks) {
      if (subscriber.closed) return;
      subscriber.next(chunk);
    }
    if (this.#failure !== undefined) subscriber.error(this.#failure.error);
    else if (this.#status !== undefined) subscriber.complete();
    else return this.#live.subscribe(subscriber);
    return undefined;
  }

  #wait(chunks$: Observable<ToolChunk>, options: RunnerWaitOptions | undefined): Promise<RunnerExitInfo> {
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
        : this.deps.scheduler.schedule(
            () => this.#finish({ exitCode: null, signal: null, timedOut: true }, 'timeout'),
            timeoutMs,
          );
    return this.#done.promise.finally(() => {
      listening.unsubscribe();
      timer?.unsubscribe();
    });
  }

  #emit(chunk: ToolChunk): void {
    if (this.#ended) return;
    this.#record.addChunk(chunk);
    this.#live.next(chunk);
  }

  #finish(status: RunnerStatus, reason: SpanEndReason): void {
    if (this.#ended) return;
    this.#lines.flush();
    this.#status = status;
    this.#calls.clear();
    this.#tools.abort();
    this.#sink?.unsubscribe();
    this.#live.complete();
    const durationMs = Math.max(0, this.deps.scheduler.now() - this.#startedAt);
    const info = this.#record.exitInfo(this.deps.pid, status, durationMs);
    this.#span.end(reason, runnerSpanEnd(info));
    this.#done.resolve(info);
  }

  #fail(error: unknown): void {
    if (this.#ended) return;
    const message = error instanceof Error ? error.message : String(error);
    this.#span.end('error', { errorType: errorTypeOf(error), message });
    this.#failure = { error };
    this.#calls.clear();
    this.#tools.abort();
    this.#live.error(error);
    this.#done.reject(error);
  }

  #report(line: string, problem: string): void {
    const entry = this.#record.addMalformed(line, problem);
    try {
      this.deps.onMalformed?.(entry);
    } catch {
      // A reporter that throws must not stop the runner.
    }
  }

  #onEvent(event: RunnerLinkEvent) {
    if (event.type === 'exit') {
      const status = { exitCode: event.exitCode, signal: event.signal, timedOut: false };
      return this.#finish(status, event.signal === null ? 'exit' : 'signal');
    }
    if (event.stream === 'stderr') return this.#record.addStderr(event.text);
    this.#lines.push(event.text, event.partial === true);
  }

  #onLine(text: string, overlong: boolean) {
    const line = text.replace(/\r?\n$/, '');
    if (overlong) return this.#report(line, 'Line is longer than the largest message accepted');
    if (line.trim() === '') return;
    const parsed = parseRunnerLine(line);
    if (!parsed.ok) return this.#report(line, parsed.problem);
    const message = parsed.message;
    if (message.op === 'chunk') this.#emit(message);
    else if (message.op === 'result') this.#record.setResult(message.value);
    else this.#onToolCall(message);
  }

  #onToolCall(message: Record<string, unknown>): void {
    const id =
      typeof message.id === 'string' || Number.isInteger(message.id) ? (message.id as string | number) : null;
    const call = this.#record.addToolCall(id, typeof message.name === 'string' ? message.name : null);
    const { pid, registry, kernel } = this.deps;
    this.#calls.add(async () => {
      const onChunk = (chunk: ToolChunk) => this.#emit(chunk);
      // In the runner's span: the Exec tool's run is its child.
      const answer = await this.#span.within(() =>
        dispatchToolCall({ msg: message, pid, registry, kernel, onChunk, signal: this.#tools.signal }),
      );
      if (this.#ended) return;
      call.result = answer;
      this.link.send(toolResultLine(id, answer));
    });
  }
}

/** What a runner's span records at its end: exit code, chunks, tool calls, malformed lines, and status. */
function runnerSpanEnd(info: RunnerExitInfo): SpanEndDetails {
  const failed = info.timedOut || info.signal !== null || (info.exitCode !== null && info.exitCode !== 0);
  const errorType = info.timedOut ? 'timeout' : (info.signal ?? String(info.exitCode));
  return {
    lines: info.chunks.length + info.chunksDropped,
    attributes: {
      'process.exit.code': info.exitCode ?? undefined,
      'sluice.tool_calls': info.toolCalls.length,
      'sluice.malformed': info.malformed.length + info.malformedDropped,
    },
    ...(failed ? { errorType } : {}),
  };
}

/** Runs tasks at most `max` at once, the others in order as running ones end; `clear()` drops those waiting. */
export class ToolCallQueue {
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(private readonly max: number) {}

  add(task: () => Promise<void>): void {
    const start = () => {
      this.#running += 1;
      void task().then(() => {
        this.#running -= 1;
        this.#waiting.shift()?.();
      });
    };
    if (this.#running < this.max) start();
    else this.#waiting.push(start);
  }

  clear(): void {
    this.#waiting.length = 0;
  }
}
