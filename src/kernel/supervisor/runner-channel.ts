import type { ToolResult } from '../tools/tool-result.js';

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
