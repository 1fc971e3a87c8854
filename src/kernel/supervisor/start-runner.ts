import { setMaxListeners } from 'node:events';
import { Observable, Subject, type Subscriber, Subscription } from 'rxjs';
import { z } from 'zod';
import { deferred } from '../../core/deferred.js';
import { describeIssue } from '../../core/errors/describe-issue.js';
import { firstIssue } from '../../core/errors/first-issue.js';
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
import { jsonNestsDeeper } from '../protocol/json-scan.js';
import { dispatchToolCall } from '../tools/dispatch-tool-call.js';
import { type ToolChunk, type ToolResult, toolChunkSchema } from '../tools/tool.js';
import type {
  MalformedLine,
  RunnerExitInfo,
  RunnerHandle,
  RunnerLink,
  RunnerLinkEvent,
  RunnerToolCall,
  RunnerWaitOptions,
  StartRunnerDeps,
} from './runner.js';

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

/**
 * The messages a runner may send, one JSON object per line (docs/protocol.md, "Runners and the
 * supervisor"). Any `tool_call` object passes here: `dispatchToolCall` checks it and answers errors.
 */
const runnerMessageSchema = z.discriminatedUnion('op', [
  toolChunkSchema,
  z.looseObject({ op: z.literal('tool_call') }),
  z.object({ op: z.literal('result'), value: z.unknown() }),
]);

/** A validated runner message (see {@link runnerMessageSchema}). */
export type RunnerMessage = z.infer<typeof runnerMessageSchema>;

const OPS = ['chunk', 'tool_call', 'result'];
/** As deep as a wire frame may nest (serde_json's limit): deeper lines are refused unparsed. */
const MAX_DEPTH = 128;

/**
 * Decodes one NDJSON line from a runner; never throws: a bad line gives `{ ok: false, problem }`
 * naming what is wrong, and one nested deeper than 128 levels is refused unparsed.
 */
export function parseRunnerLine(
  line: string,
): { ok: true; message: RunnerMessage } | { ok: false; problem: string } {
  if (jsonNestsDeeper(line, MAX_DEPTH)) {
    return { ok: false, problem: `Nests arrays and objects deeper than ${MAX_DEPTH} levels` };
  }
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, problem: `Not JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: 'Expected a JSON object' };
  }
  const op = (value as { op?: unknown }).op;
  if (typeof op !== 'string' || !OPS.includes(op)) {
    return {
      ok: false,
      problem: `Unknown op ${JSON.stringify(op) ?? 'nothing'} (expected ${OPS.join(', ')})`,
    };
  }
  const parsed = runnerMessageSchema.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      problem: `Invalid message: ${describeIssue(firstIssue(parsed.error, value), 'the message')}`,
    };
  }
  return { ok: true, message: parsed.data };
}

/**
 * Joins the pieces `exec` cut a line longer than its `maxLineBytes` into: the whole line goes to
 * `onLine` with `overlong: true` (the supervisor reports it as malformed).
 */
export class LineJoiner {
  readonly #onLine: (text: string, overlong: boolean) => void;
  #pending: { text: string; overlong: boolean } | undefined;

  constructor(onLine: (text: string, overlong: boolean) => void) {
    this.#onLine = onLine;
  }

  /** One piece of a line; `partial` when the source cut the line there. */
  push(text: string, partial: boolean): void {
    const joined = (this.#pending?.text ?? '') + text;
    const overlong = this.#pending?.overlong === true || partial;
    if (partial && !text.endsWith('\n')) {
      this.#pending = { text: joined, overlong };
      return;
    }
    this.#pending = undefined;
    this.#onLine(joined, overlong);
  }

  /** Hands out what is left of an unfinished line (the runner exited in the middle of it). */
  flush(): void {
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending !== undefined) this.#onLine(pending.text, pending.overlong);
  }
}

/**
 * The `{ op: 'tool_result', id, result }` line; a result that is not JSON is answered with a
 * `TOOL_FAILED` error instead, so the runner always gets an answer.
 */
export function toolResultLine(id: string | number | null, result: ToolResult): string {
  try {
    return JSON.stringify({ op: 'tool_result', id, result });
  } catch (error) {
    const problem = { code: 'TOOL_FAILED', message: `Result is not JSON: ${(error as Error).message}` };
    return JSON.stringify({ op: 'tool_result', id, result: { ok: false, error: problem } });
  }
}

const MAX_STDERR = 64 * 1024;
const MAX_SHOWN_LINE = 200;

export interface RunnerStatus {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
}

/**
 * What a runner has said so far, bounded whatever it writes: the first `maxChunks` chunks and
 * `maxMalformed` malformed lines (the rest counted), its tool calls, the first 64 KiB of stderr
 * and its `result` message.
 */
export class RunnerRecord {
  readonly #chunks: ToolChunk[] = [];
  #chunksDropped = 0;
  readonly #malformed: MalformedLine[] = [];
  #malformedDropped = 0;
  readonly #toolCalls: RunnerToolCall[] = [];
  #stderr = '';
  #result: { value: unknown } | undefined;

  constructor(
    private readonly maxChunks: number,
    private readonly maxMalformed: number,
  ) {}

  /** The chunks kept so far (a copy). */
  get chunks(): readonly ToolChunk[] {
    return [...this.#chunks];
  }

  addChunk(chunk: ToolChunk): void {
    if (this.#chunks.length < this.maxChunks) this.#chunks.push(chunk);
    else this.#chunksDropped += 1;
  }

  /** Records a malformed line (cut to 200 characters) and returns the entry. */
  addMalformed(line: string, problem: string): MalformedLine {
    const shown = line.length > MAX_SHOWN_LINE ? `${line.slice(0, MAX_SHOWN_LINE - 3)}...` : line;
    const entry = { line: shown, problem };
    if (this.#malformed.length < this.maxMalformed) this.#malformed.push(entry);
    else this.#malformedDropped += 1;
    return entry;
  }

  /** Starts a tool call's entry; the caller sets its `result` when it answers. */
  addToolCall(id: string | number | null, name: string | null): { result: RunnerToolCall['result'] } {
    const call = { id, name, result: undefined };
    this.#toolCalls.push(call);
    return call;
  }

  addStderr(text: string): void {
    if (this.#stderr.length < MAX_STDERR) this.#stderr += text.slice(0, MAX_STDERR - this.#stderr.length);
  }

  setResult(value: unknown): void {
    this.#result = { value };
  }

  exitInfo(pid: number, status: RunnerStatus, durationMs: number): RunnerExitInfo {
    return {
      pid,
      ...status,
      chunks: this.chunks,
      chunksDropped: this.#chunksDropped,
      toolCalls: [...this.#toolCalls],
      malformed: [...this.#malformed],
      malformedDropped: this.#malformedDropped,
      ...(this.#result === undefined ? {} : { result: this.#result.value }),
      stderr: this.#stderr,
      durationMs,
    };
  }
}
