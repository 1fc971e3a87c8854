import { z } from 'zod';

/**
 * The schema of a tool call as it crosses the wire: `{ op: 'tool_call', id, name, args }`. `id`
 * is a string or an integer chosen by the caller and echoed in the answer; `args` defaults to `{}`.
 *
 * @example
 * ```ts
 * import { toolCallMessageSchema } from 'sluice/kernel';
 * toolCallMessageSchema.parse({ op: 'tool_call', id: 1, name: 'Exec', args: { argv: ['true'] } });
 * ```
 */
export const toolCallMessageSchema = z.object({
  op: z.literal('tool_call', { error: 'must be "tool_call"' }),
  id: z.union([z.string(), z.number().int()], { error: 'must be a string or an integer' }),
  name: z.string({ error: 'must be a non-empty string' }).min(1, { error: 'must be a non-empty string' }),
  args: z.unknown().optional(),
});

/**
 * A validated tool call (see {@link toolCallMessageSchema}).
 *
 * @example
 * ```ts
 * import type { ToolCallMessage } from 'sluice/kernel';
 * const msg: ToolCallMessage = { op: 'tool_call', id: 'a1', name: 'Exec', args: { argv: ['ls'] } };
 * ```
 */
export type ToolCallMessage = z.infer<typeof toolCallMessageSchema>;
