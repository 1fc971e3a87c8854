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
  /** The shape of the handler's result (an object schema), when it has a fixed one. */
  readonly outputSchema?: z.ZodType<R>;
  readonly handler: (args: A, ctx: ToolContext) => R | Promise<R>;
}
