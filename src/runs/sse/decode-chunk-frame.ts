import type { ChunkEvent } from '../../core/chunk.js';

/**
 * The chunk event an {@link encodeChunkEvent} frame carries: its `data` line parsed back (`{
 * sequence, kind, content, metadata?, isFinal }`) — an equal copy of the event as JSON has it (what
 * a Redis run store gives back too). Only for frames sluice encoded itself (their `data` is one
 * JSON line); a browser decodes with `decodeSseMessage` instead, which checks what it gets.
 */
export function decodeChunkFrame(frame: string): ChunkEvent<unknown> {
  const data = frame.indexOf('\ndata: ') + 7;
  return JSON.parse(frame.slice(data, frame.length - 2)) as ChunkEvent<unknown>;
}
