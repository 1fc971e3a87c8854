import type { ChunkEvent, ChunkMetadata } from '../../src/core/chunk.js';

/** A chunk event: `kind` `'stdout'` unless given, `metadata` only when given. */
export function chunk<T>(
  sequence: number,
  content: T,
  isFinal = false,
  metadata?: ChunkMetadata,
  kind = 'stdout',
): ChunkEvent<T> {
  return metadata === undefined
    ? { sequence, kind, content, isFinal }
    : { sequence, kind, content, metadata, isFinal };
}
