import type { ChunkEvent, ChunkMetadata } from '../../src/core/chunk.js';

/** What {@link chunk} takes besides the sequence, content and final flag. */
export interface ChunkShape {
  /** Default `'stdout'`. */
  readonly kind?: string;
  /** Set on the event only when given. */
  readonly metadata?: ChunkMetadata;
}

/**
 * The one chunk event builder of the suite: `kind` `'stdout'` unless given, `metadata` only when
 * given. A test with its own content pattern wraps it (`(n) => chunk(n, \`line ${n}\n\`)`)
 * rather than writing the object again.
 */
export function chunk<T>(
  sequence: number,
  content: T | null,
  isFinal = false,
  { kind = 'stdout', metadata }: ChunkShape = {},
): ChunkEvent<T> {
  return metadata === undefined
    ? { sequence, kind, content, isFinal }
    : { sequence, kind, content, metadata, isFinal };
}

/**
 * Marble values of one-letter chunks: letter `i` of `names` is `chunk(i, letter)`, final when it
 * is `final` (`chunkLetters('abc', 'c')` → `{ a: chunk(0, 'a'), …, c: chunk(2, 'c', true) }`).
 */
export function chunkLetters(names: string, final?: string): Record<string, ChunkEvent<string>> {
  return Object.fromEntries([...names].map((name, index) => [name, chunk(index, name, name === final)]));
}
