/**
 * One event of a sequenced stream: exactly one event per stream is final, the last (a stream that
 * produced nothing has one with `content: null`), followed by `complete`; on the wire a
 * `StreamChunk` (docs/protocol.md, "Chunk events").
 */
export interface ChunkEvent<T = unknown> {
  /** 0-based, contiguous per stream. */
  readonly sequence: number;
  /** Free-form, chosen by the source. */
  readonly kind: string;
  /** The payload; `null` on a sentinel final event. */
  readonly content: T | null;
  /** Optional details (`partial`, `reason`, `dropped`, `tool`, …). */
  readonly metadata?: ChunkMetadata;
  /** `true` on the last event of the stream, and only there. */
  readonly isFinal: boolean;
}

/**
 * The final event an operator adds in place of one the source never gave (`stallTimeout`,
 * `bounded` after drops). Its `kind` is the literal `'end'`, so narrowing on another leaves it out.
 */
export interface EndSentinel extends ChunkEvent<never> {
  readonly kind: 'end';
  readonly content: null;
  readonly isFinal: true;
}

/**
 * Metadata a chunk may carry. Well-known keys:
 * - `partial: true` — a piece of a line longer than the source's line limit;
 * - `reason` — on a final sentinel, why the stream ended early (`'stalled'`, `'cancelled'`, …);
 * - `dropped` — how many events a bounded buffer dropped before this one.
 */
export type ChunkMetadata = Readonly<Record<string, unknown>> & {
  readonly partial?: boolean;
  readonly reason?: string;
  readonly dropped?: number;
};

/** An event before `sequenced()` stamps it; without a final one a source gets the null sentinel. */
export interface ChunkInput<T = unknown> {
  readonly kind: string;
  readonly content: T | null;
  readonly metadata?: ChunkMetadata;
  readonly isFinal?: boolean;
}
