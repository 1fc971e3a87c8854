/**
 * One event of a sequenced stream.
 *
 * - `sequence` is 0-based and contiguous per stream;
 * - `kind` is chosen by the source (`stdout`, `stderr`, `body`, `response`, `exit`, …);
 * - exactly one event per stream has `isFinal: true`, and it is the last one; a stream that
 *   produced nothing still has exactly one final event, with `content: null`.
 *
 * In the Rx world the final event is followed by `complete`; on the wire it is a
 * `StreamChunk { sequence, chunk, is_final }` (docs/protocol.md, "Chunk events").
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
 * The final event an operator adds itself, in place of one the source never gave:
 * `stallTimeout` ends a stalled stream with it (`metadata.reason: 'stalled'`), `bounded` when
 * the source completed without a final event after drops (`metadata.dropped`). Its `kind` is the
 * literal `'end'`, so narrowing a stream's events on any other `kind` leaves it out.
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

/**
 * An event before {@link sequenced} stamps it: a source emits these, and `sequenced()` adds the
 * sequence number. `isFinal: true` marks the last one (optional: a source that simply completes
 * gets the null sentinel).
 */
export interface ChunkInput<T = unknown> {
  readonly kind: string;
  readonly content: T | null;
  readonly metadata?: ChunkMetadata;
  readonly isFinal?: boolean;
}
