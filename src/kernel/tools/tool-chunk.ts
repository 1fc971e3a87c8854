import { z } from 'zod';

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
