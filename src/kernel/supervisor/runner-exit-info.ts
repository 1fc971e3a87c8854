import type { ToolChunk } from '../tools/tool-chunk.js';
import type { ToolResult } from '../tools/tool-result.js';

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
