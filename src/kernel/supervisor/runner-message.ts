import { z } from 'zod';
import { toolChunkSchema } from '../tools/tool-chunk.js';

/**
 * The messages a runner may send, one JSON object per line on its stdout:
 *
 * - `{ op: 'chunk', kind, content, metadata? }` — its own streamed output (model tokens, progress);
 * - `{ op: 'tool_call', id, name, args }` — answered with `{ op: 'tool_result', id, result }` on its
 *   stdin (the call itself is validated by `dispatchToolCall`, which answers errors, so any object
 *   with this `op` is accepted here);
 * - `{ op: 'result', value }` — the runner's final answer, reported in `RunnerExitInfo.result`.
 */
export const runnerMessageSchema = z.discriminatedUnion('op', [
  toolChunkSchema,
  z.looseObject({ op: z.literal('tool_call') }),
  z.object({ op: z.literal('result'), value: z.unknown() }),
]);

/** A validated runner message (see {@link runnerMessageSchema}). */
export type RunnerMessage = z.infer<typeof runnerMessageSchema>;
