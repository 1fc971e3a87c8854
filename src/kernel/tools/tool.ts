import { z } from 'zod';
import type { Demand } from '../../core/demand.js';

/** One streamed chunk on the wire (docs/protocol.md, "Chunks"): `kind` is the emitter's choice. */
export const toolChunkSchema = z.object({
  op: z.literal('chunk', { error: 'must be "chunk"' }),
  kind: z.string({ error: 'must be a string' }).min(1, { error: 'must be a non-empty string' }),
  content: z.unknown(),
  metadata: z.record(z.string(), z.unknown(), { error: 'must be an object' }).optional(),
});

/** The Exec tool's `content` is one line, newline included. */
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

/** What a tool handler is given besides its arguments. */
export interface ToolContext<K = unknown> {
  /** The kernel process id of the caller (a runner's id in the supervisor). */
  readonly pid: number;
  readonly kernel: K | undefined;
  /**
   * Present only when somebody listens. It never throws back at the tool (a throwing listener is
   * caught at the dispatch boundary), but a chunk of the wrong shape is a `TypeError`.
   */
  readonly onChunk?: ((chunk: ToolChunk) => void) | undefined;
  /** Aborted when the caller gives up: a tool that started a process must kill it then. */
  readonly signal?: AbortSignal | undefined;
  /** Present when the listener can fall behind: while paused, stop producing (docs/backpressure.md). */
  readonly demand?: Demand | undefined;
}

/**
 * A tool. Word `schema`'s custom messages to follow the field name (`{ error: 'must be a boolean' }`
 * answers "Invalid arguments of `Echo`: `stream` must be a boolean, got "yes" (string)").
 */
export interface ToolDefinition<A = any, R = unknown> {
  readonly name: string;
  readonly schema: z.ZodType<A>;
  readonly description?: string;
  /** The shape of the result after `encodeResult` (an object schema), when it has a fixed one. */
  readonly outputSchema?: z.ZodType;
  readonly handler: (args: A, ctx: ToolContext) => R | Promise<R>;
  /** The handler's value as it travels in every answer of the tool. Default: the value itself. */
  encodeResult?(value: R): unknown;
}

/** A tool call on the wire; the caller's `id` is echoed in the answer; `args` defaults to `{}`. */
export const toolCallMessageSchema = z.object({
  op: z.literal('tool_call', { error: 'must be "tool_call"' }),
  id: z.union([z.string(), z.number().int()], { error: 'must be a string or an integer' }),
  name: z.string({ error: 'must be a non-empty string' }).min(1, { error: 'must be a non-empty string' }),
  args: z.unknown().optional(),
});

/** A validated tool call. */
export type ToolCallMessage = z.infer<typeof toolCallMessageSchema>;
