import { z } from 'zod';

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
