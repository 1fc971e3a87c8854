import type { Observable, SchedulerLike } from 'rxjs';
import type { ToolChunk, ToolResult } from '../tools/tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';

/**
 * The message channel an in-process runner is given — the same protocol a child process speaks
 * over its stdio, without the process:
 *
 * - `send(message)` — writes one message as an NDJSON line (it is parsed and validated exactly
 *   like a child's line); `sendLine(text)` writes raw text (to test malformed input);
 * - `callTool(name, args)` — sends a `tool_call` with a fresh id and resolves with the matching
 *   `tool_result`'s result;
 * - `signal` — aborted when the supervisor stops the runner (timeout, `kill()`).
 */
export interface RunnerChannel {
  send(message: object): void;
  sendLine(text: string): void;
  callTool(name: string, args?: unknown): Promise<ToolResult>;
  readonly signal: AbortSignal;
}

/**
 * A runner that lives in this process: a function given a {@link RunnerChannel}. What it returns
 * (or resolves) is its exit code (`undefined` = 0); a throw is exit code 1 with the error's message
 * on its stderr.
 */
export type InProcessRunner = (
  channel: RunnerChannel,
) => number | undefined | Promise<number | undefined> | Promise<void> | void;

/**
 * Options of {@link RunnerHandle.wait}.
 *
 * - `onChunk` — called with every chunk (runner-emitted and tool-emitted) in real time, those that
 *   arrived before `wait()` first; whatever it throws is swallowed;
 * - `timeoutMs` — deadline from the call, by the supervisor's scheduler (0 or absent = none). It
 *   holds while a tool call is running: the runner's process group and the tool's are both killed.
 */
export interface RunnerWaitOptions {
  readonly onChunk?: ((chunk: ToolChunk) => void) | undefined;
  readonly timeoutMs?: number | undefined;
}

/**
 * A running runner, as returned by `supervisor.spawn()`.
 *
 * - `pid` — its kernel process id (what its tool calls see as `ctx.pid`);
 * - `wait(options)` — resolves with its {@link RunnerExitInfo} once it exits (or is killed);
 *   rejects only when it could not start (e.g. a `SpawnError`);
 * - `chunks$` — the same chunks as an Observable: replays those kept so far (the first
 *   `maxChunks`), then follows live, and completes when the runner is gone (`observe()` returns it
 *   too);
 * - `kill()` — stops it now (process group, running tools included).
 */
export interface RunnerHandle {
  readonly pid: number;
  readonly chunks$: Observable<ToolChunk>;
  observe(): Observable<ToolChunk>;
  wait(options?: RunnerWaitOptions): Promise<RunnerExitInfo>;
  kill(): void;
}

/**
 * How a runner ended, with everything it produced.
 *
 * - `exitCode` / `signal` — its exit status; both `null` when the supervisor killed it (timeout or
 *   `kill()`), since the status is not awaited then;
 * - `timedOut` — the `wait()` deadline killed it (and any tool process it was waiting for);
 * - `chunks` — the chunks, runner-emitted and tool-emitted, in arrival order, up to the
 *   supervisor's `maxChunks` (default 10 000; empty when nothing streamed); `chunksDropped` counts
 *   the later ones, which were still streamed live to `wait({ onChunk })` and `chunks$`, like
 *   `exec`'s output cap and its `truncated`;
 * - `toolCalls` — each tool call with its outcome, in call order;
 * - `malformed` — stdout lines that were not valid messages (reported, never fatal), up to
 *   `maxMalformed` (default 100); `malformedDropped` counts the rest;
 * - `result` — the `value` of the runner's last `{ op: 'result' }` message, if any;
 * - `stderr` — what the runner wrote to stderr (capped);
 * - `durationMs` — from spawn to exit, by the supervisor's scheduler.
 */
export interface RunnerExitInfo {
  readonly pid: number;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly chunks: readonly ToolChunk[];
  /** Chunks past the supervisor's `maxChunks`: streamed live, not kept in `chunks`. */
  readonly chunksDropped: number;
  readonly toolCalls: readonly RunnerToolCall[];
  readonly malformed: readonly MalformedLine[];
  /** Malformed lines past the supervisor's `maxMalformed`: reported to `onMalformed`, not kept. */
  readonly malformedDropped: number;
  readonly result?: unknown;
  readonly stderr: string;
  readonly durationMs: number;
}

/**
 * One tool call a runner made: its `id` and `name` as sent (`null` when missing or not valid) and
 * the result the supervisor answered (`undefined` while it is still running or when the runner
 * was gone before it finished).
 */
export interface RunnerToolCall {
  readonly id: string | number | null;
  readonly name: string | null;
  readonly result: ToolResult | undefined;
}

/**
 * A stdout line from a runner that is not a valid message: the `line` (cut to 200 characters) and
 * the `problem`, naming the field when it is one.
 */
export interface MalformedLine {
  readonly line: string;
  readonly problem: string;
}

/**
 * What the supervisor sees of a runner, whatever it runs on: an Observable of its output lines
 * and its exit (unsubscribing kills it — the whole process group for a child), and `send` to
 * write one line to its input.
 */
export interface RunnerLink {
  readonly events$: Observable<RunnerLinkEvent>;
  send(line: string): void;
}

/**
 * One thing a runner did: a piece of a stdout / stderr line (`partial: true` when the line goes on
 * in the next piece), or its exit.
 */
export type RunnerLinkEvent =
  | {
      readonly type: 'line';
      readonly stream: 'stdout' | 'stderr';
      readonly text: string;
      readonly partial?: boolean;
    }
  | { readonly type: 'exit'; readonly exitCode: number | null; readonly signal: string | null };

/** What {@link startRunner} needs besides the link. */
export interface StartRunnerDeps {
  readonly pid: number;
  /** What the runner's span is named after (`runner <name>`): the program of a child runner. Default `in-process`. */
  readonly name?: string | undefined;
  readonly registry: ToolRegistry;
  readonly kernel?: unknown;
  readonly scheduler: SchedulerLike;
  /** Told about every malformed stdout line as it arrives (they are also in `RunnerExitInfo.malformed`). */
  readonly onMalformed?: ((malformed: MalformedLine) => void) | undefined;
  /** How many chunks `RunnerExitInfo.chunks` keeps (default 10 000); later ones are streamed, counted. */
  readonly maxChunks?: number | undefined;
  /** How many malformed lines `RunnerExitInfo.malformed` keeps (default 100). */
  readonly maxMalformed?: number | undefined;
  /** How many tool calls of the runner run at once (default 8); later ones wait their turn, in order. */
  readonly maxConcurrentToolCalls?: number | undefined;
}
