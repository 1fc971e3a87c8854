import type { ChunkEvent } from '../../core/chunk.js';
import { formatSseFrame } from './format-sse-frame.js';

/**
 * The SSE frame of one sequenced chunk event: `id` is its sequence, `event` its kind, `data` the
 * event as JSON (`{ sequence, kind, content, metadata?, isFinal }`), so a client can rebuild the
 * event exactly and resume with `Last-Event-ID: <sequence>`. Throws what `JSON.stringify` throws
 * (a `BigInt` or a cycle in `content`).
 */
export function encodeChunkEvent(event: ChunkEvent<unknown>): string {
  return formatSseFrame({
    id: event.sequence,
    event: event.kind,
    data: JSON.stringify(chunkEventBody(event)),
  });
}

/**
 * The event as it goes out as JSON, in the SSE frame's `data` and in a Redis batch alike:
 * `{ sequence, kind, content, metadata?, isFinal }`, `metadata` only when the event has one.
 */
export function chunkEventBody(event: ChunkEvent<unknown>): object {
  return event.metadata === undefined
    ? { sequence: event.sequence, kind: event.kind, content: event.content, isFinal: event.isFinal }
    : {
        sequence: event.sequence,
        kind: event.kind,
        content: event.content,
        metadata: event.metadata,
        isFinal: event.isFinal,
      };
}
