import type { z } from 'zod';
import type { ToolContext } from './tool-context.js';

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
