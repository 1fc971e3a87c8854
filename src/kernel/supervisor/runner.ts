import type { Observable, SchedulerLike } from 'rxjs';
import type { ToolChunk, ToolResult } from '../tools/tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';

/**
 * The channel an in-process runner is given: a child's stdio protocol without the process.
 * `send` writes a message as an NDJSON line (validated like a child's), `sendLine` raw text;
 * `callTool` resolves with the matching `tool_result`; `signal` aborts when the runner is stopped.
 */
export interface RunnerChannel {
  send(message: object): void;
  sendLine(text: string): void;
  callTool(name: string, args?: unknown): Promise<ToolResult>;
  readonly signal: AbortSignal;
}

/** A runner in this process: it returns its exit code (`undefined`: 0); a throw is exit code 1. */
export type InProcessRunner = (
  channel: RunnerChannel,
) => number | undefined | Promise<number | undefined> | Promise<void> | void;

/** Options of {@link RunnerHandle.wait}. */
export interface RunnerWaitOptions {
  /** Every chunk in real time, those before `wait()` first; what it throws is swallowed. */
  readonly onChunk?: ((chunk: ToolChunk) => void) | undefined;
  /** Deadline from the call (0 or absent: none); kills the runner's group and a running tool's. */
  readonly timeoutMs?: number | undefined;
}

/**
 * A running runner (`supervisor.spawn()`): `pid` is what its tool calls see as `ctx.pid`; `wait`
 * rejects only when it could not start; `chunks$` replays the chunks kept so far, then follows
 * live, and completes when the runner is gone; `kill()` stops it and its running tools.
 */
export interface RunnerHandle {
  readonly pid: number;
  readonly chunks$: Observable<ToolChunk>;
  observe(): Observable<ToolChunk>;
  wait(options?: RunnerWaitOptions): Promise<RunnerExitInfo>;
  kill(): void;
}

/**
 * How a runner ended, with everything it produced. `exitCode` and `signal` are `null` when the
 * supervisor killed it (timeout, `kill()`). Chunks (in arrival order) and malformed lines are kept
 * up to the supervisor's `maxChunks` and `maxMalformed`, the rest counted, as `exec`'s output cap.
 */
export interface RunnerExitInfo {
  readonly pid: number;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly chunks: readonly ToolChunk[];
  readonly chunksDropped: number;
  readonly toolCalls: readonly RunnerToolCall[];
  readonly malformed: readonly MalformedLine[];
  readonly malformedDropped: number;
  /** The `value` of the runner's last `{ op: 'result' }` message. */
  readonly result?: unknown;
  /** What the runner wrote to stderr (capped). */
  readonly stderr: string;
  readonly durationMs: number;
}

/** One tool call a runner made; `result` is `undefined` while it runs or if the runner left first. */
export interface RunnerToolCall {
  readonly id: string | number | null;
  readonly name: string | null;
  readonly result: ToolResult | undefined;
}

/** A stdout line that is not a valid message (cut to 200 characters), and what is wrong with it. */
export interface MalformedLine {
  readonly line: string;
  readonly problem: string;
}

/** A runner's output lines and exit (unsubscribing kills it), and `send` to write a line to it. */
export interface RunnerLink {
  readonly events$: Observable<RunnerLinkEvent>;
  send(line: string): void;
}

/** A piece of an output line (`partial`: the line goes on in the next piece), or the exit. */
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
  /** Told about every malformed stdout line as it arrives. */
  readonly onMalformed?: ((malformed: MalformedLine) => void) | undefined;
  // Bounds and defaults as in `SupervisorOptions`.
  readonly maxChunks?: number | undefined;
  readonly maxMalformed?: number | undefined;
  readonly maxConcurrentToolCalls?: number | undefined;
}
