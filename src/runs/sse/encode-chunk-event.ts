import type { ChunkEvent } from '../core/chunk.js';
import { formatSseFrame } from './format-sse-frame.js';

/**
 * The SSE frame of one sequenced chunk event: `id` is its sequence, `event` its kind, `data` the
 * event as JSON (`{ sequence, kind, content, metadata?, isFinal }`), so a client can rebuild the
 * event exactly and resume with `Last-Event-ID: <sequence>`. Throws what `JSON.stringify` throws
 * (a `BigInt` or a cycle in `content`).
 */
export function encodeChunkEvent(event: ChunkEvent<unknown>): string {
  const body =
    event.metadata === undefined
      ? { sequence: event.sequence, kind: event.kind, content: event.content, isFinal: event.isFinal }
      : {
          sequence: event.sequence,
          kind: event.kind,
          content: event.content,
          metadata: event.metadata,
          isFinal: event.isFinal,
        };
  return formatSseFrame({ id: event.sequence, event: event.kind, data: JSON.stringify(body) });
}
