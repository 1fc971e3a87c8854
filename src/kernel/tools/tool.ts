import { z } from 'zod';
import type { Demand } from '../../core/demand.js';

/**
 * The wire shape of one streamed chunk, as docs/protocol.md ("Chunks") defines it: `op: 'chunk'`, a free-form `kind`
 * the emitter chooses (`'stdout'`, `'stderr'`, `'token'`, …), the `content` delta, and optional
 * `metadata`. Tools emit it through {@link ToolContext.onChunk}; runners send it as one NDJSON line.
 */
export const toolChunkSchema = z.object({
  op: z.literal('chunk', { error: 'must be "chunk"' }),
  kind: z.string({ error: 'must be a string' }).min(1, { error: 'must be a non-empty string' }),
  content: z.unknown(),
  metadata: z.record(z.string(), z.unknown(), { error: 'must be an object' }).optional(),
});

/**
 * One streamed chunk (see {@link toolChunkSchema}). `content` is a string for the Exec tool (one
 * line including its newline) and whatever the emitter chose otherwise.
 */
export type ToolChunk = z.infer<typeof toolChunkSchema>;

/**
 * What a tool call answers, never thrown: `{ ok: true, value }` with the handler's result, or
 * `{ ok: false, error: { code, message } }` naming the problem. Codes used by
 * {@link dispatchToolCall}: `INVALID_MESSAGE` (the call itself is malformed), `UNKNOWN_TOOL`,
 * `INVALID_ARGUMENTS`, `TOOL_FAILED` (the handler threw something without a code), or the `code`
 * of the error the handler threw (`SPAWN_FAILED`, …).
 */
export type ToolResult<R = unknown> =
  | { readonly ok: true; readonly value: R }
  | { readonly ok: false; readonly error: { readonly code: string; readonly message: string } };

/**
 * What a tool handler is given besides its arguments.
 *
 * - `pid` — the kernel process id of the caller (a runner's id in the supervisor);
 * - `kernel` — the kernel object, if the host has one (`undefined` otherwise);
 * - `onChunk` — present only when somebody listens for streamed chunks. Handlers MAY call it with
 *   `{ op: 'chunk', kind, content, metadata? }`; it never throws back at the tool (a listener that
 *   throws is caught at the dispatch boundary), but a payload of the wrong shape is a `TypeError`;
 * - `signal` — aborted when the caller gives up (runner timeout, runner exit, cancel): a tool that
 *   started a process must kill it then;
 * - `demand` — present when the chunk listener can fall behind (an MCP client on a slow
 *   transport): while it is paused a tool that can wait should stop producing chunks. The Exec
 *   tool stops reading the child's pipes, so the child blocks (docs/backpressure.md).
 */
export interface ToolContext<K = unknown> {
  readonly pid: number;
  readonly kernel: K | undefined;
  readonly onChunk?: ((chunk: ToolChunk) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly demand?: Demand | undefined;
}

/**
 * A tool: its `name`, a zod `schema` for its arguments (word its custom messages to follow the
 * field name, e.g. `{ error: 'must be a boolean' }`: a bad call is answered
 * "Invalid arguments of `Echo`: `stream` must be a boolean, got "yes" (string)"), and a
 * `handler` that receives the parsed arguments and a {@link ToolContext}. A host that lists its
 * tools (`serveMcp` in `sluice/mcp`) also publishes the optional `description` and the JSON
 * Schema of `schema` and `outputSchema`.
 */
export interface ToolDefinition<A = any, R = unknown> {
  readonly name: string;
  readonly schema: z.ZodType<A>;
  /** What the tool does, for a model or a person choosing tools. */
  readonly description?: string;
  /** The shape of the result as it travels (after `encodeResult`; an object schema), when it has a fixed one. */
  readonly outputSchema?: z.ZodType;
  readonly handler: (args: A, ctx: ToolContext) => R | Promise<R>;
  /**
   * The handler's value as it travels in the tool's answer (`dispatchToolCall`'s `ToolResult`, a
   * runner's `tool_result`, an MCP structured result, which `outputSchema` describes). Default:
   * the value itself. The Exec tool writes its result in the wire's names here.
   */
  encodeResult?(value: R): unknown;
}

/**
 * The schema of a tool call as it crosses the wire: `{ op: 'tool_call', id, name, args }`. `id`
 * is a string or an integer chosen by the caller and echoed in the answer; `args` defaults to `{}`.
 */
export const toolCallMessageSchema = z.object({
  op: z.literal('tool_call', { error: 'must be "tool_call"' }),
  id: z.union([z.string(), z.number().int()], { error: 'must be a string or an integer' }),
  name: z.string({ error: 'must be a non-empty string' }).min(1, { error: 'must be a non-empty string' }),
  args: z.unknown().optional(),
});

/** A validated tool call (see {@link toolCallMessageSchema}). */
export type ToolCallMessage = z.infer<typeof toolCallMessageSchema>;
