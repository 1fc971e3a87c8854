import type { Demand } from '../../core/demand.js';
import { describeIssue } from '../../core/errors/describe-issue.js';
import { firstIssue } from '../../core/errors/first-issue.js';
import { isSluiceError } from '../../core/errors/sluice-error.js';
import {
  type ToolChunk,
  type ToolContext,
  type ToolResult,
  toolCallMessageSchema,
  toolChunkSchema,
} from './tool.js';
import type { ToolRegistry } from './tool-registry.js';

/** Arguments of {@link dispatchToolCall}. */
export interface DispatchToolCallOptions {
  /** The call, as received: `{ op: 'tool_call', id, name, args }` (validated here). */
  readonly msg: unknown;
  /** The caller's kernel process id, passed to the handler as `ctx.pid`. */
  readonly pid: number;
  readonly registry: ToolRegistry;
  readonly kernel?: unknown;
  /** Listener for streamed chunks; becomes `ctx.onChunk` (guarded: it cannot throw into the tool). */
  readonly onChunk?: ((chunk: ToolChunk) => void) | undefined;
  /** Aborting it tells the tool to stop (and kill what it started); becomes `ctx.signal`. */
  readonly signal?: AbortSignal | undefined;
  /** The chunk listener's demand: while paused, a tool that can wait stops producing; becomes `ctx.demand`. */
  readonly demand?: Demand | undefined;
  /** Told about errors thrown by `onChunk`, which are otherwise swallowed. */
  readonly onChunkError?: ((error: unknown) => void) | undefined;
}

/**
 * Validates a tool call and its arguments, builds the {@link ToolContext} and runs the tool's
 * handler. Never throws or rejects: every problem is an error {@link ToolResult} naming it.
 *
 * @example
 * ```ts
 * import { createToolRegistry, dispatchToolCall, registerBuiltinTools } from 'sluice/kernel';
 * const registry = registerBuiltinTools(createToolRegistry());
 * const result = await dispatchToolCall({
 *   msg: { op: 'tool_call', id: 1, name: 'Exec', args: { argv: ['echo', 'hi'], stream: true } },
 *   pid: 1,
 *   registry,
 *   onChunk: (chunk) => process.stdout.write(String(chunk.content)),
 * });
 * ```
 */
export async function dispatchToolCall(options: DispatchToolCallOptions): Promise<ToolResult> {
  const { msg, pid, registry, kernel, onChunk, signal, demand, onChunkError } = options;
  const call = toolCallMessageSchema.safeParse(msg);
  if (!call.success) {
    return failure(
      'INVALID_MESSAGE',
      `Invalid tool call: ${describeIssue(firstIssue(call.error, msg), 'the call')}`,
    );
  }
  const tool = registry.get(call.data.name);
  if (tool === undefined) {
    const known = registry.names().join(', ') || 'none';
    return failure('UNKNOWN_TOOL', `Unknown tool \`${call.data.name}\` (registered: ${known})`);
  }
  const input = call.data.args ?? {};
  const args = tool.schema.safeParse(input);
  if (!args.success) {
    const issue = describeIssue(firstIssue(args.error, input), 'the arguments');
    return failure('INVALID_ARGUMENTS', `Invalid arguments of \`${tool.name}\`: ${issue}`);
  }
  const ctx: ToolContext = {
    pid,
    kernel,
    onChunk: guardChunkCallback(onChunk, onChunkError),
    signal,
    ...(demand === undefined ? {} : { demand }),
  };
  try {
    const value = await tool.handler(args.data, ctx);
    return { ok: true, value: tool.encodeResult === undefined ? value : tool.encodeResult(value) };
  } catch (error) {
    const code = isSluiceError(error) ? error.code : 'TOOL_FAILED';
    const message = error instanceof Error ? error.message : String(error);
    return failure(code, `Tool \`${tool.name}\` failed: ${message}`);
  }
}

function failure(code: string, message: string): ToolResult {
  return { ok: false, error: { code, message } };
}

/**
 * A chunk listener for a tool: each payload is checked (a wrong shape is a `TypeError` for the
 * tool), and what the listener throws goes to `onListenerError`, never back into the tool.
 */
export function guardChunkCallback(
  listener: ((chunk: ToolChunk) => void) | undefined,
  onListenerError: (error: unknown) => void = () => {},
): ((chunk: ToolChunk) => void) | undefined {
  if (listener === undefined) return undefined;
  return (chunk) => {
    const parsed = toolChunkSchema.safeParse(chunk);
    if (!parsed.success) {
      throw new TypeError(`Invalid chunk: ${describeIssue(firstIssue(parsed.error, chunk), 'the chunk')}`);
    }
    try {
      listener(parsed.data);
    } catch (error) {
      try {
        onListenerError(error);
      } catch {
        // A reporter that throws is ignored as well: nothing crosses back into the tool.
      }
    }
  };
}
