import type { ChunkEvent } from '../core/chunk.js';

/**
 * How a run ended badly, as a store keeps it: the error's stable `code` (`EXEC_FAILED`,
 * `OWNER_LOST`, …), its class `name` and its `message` — the same fields as the SSE `failure`
 * frame (`docs/sse.md`).
 */
export interface RunFailure {
  readonly code: string;
  readonly name: string;
  readonly message: string;
}

/**
 * One step of reading a run from a store ({@link RunStore.read}):
 *
 * - `events` — consecutive events, in order (one stored entry: one event, or a batch). A store
 *   that keeps its events encoded for SSE (the memory store does) also gives their `frames`, one
 *   per event, so that a server encodes each event once however many viewers follow it;
 * - `gap` — sequences `from..to` are no longer retained (trimmed by retention); the next record
 *   starts at `to + 1`. Never a silent skip;
 * - `failure` — the run ended with an error after the events before it (terminal).
 *
 * The read ends after the record holding the final event, or after a `failure`.
 */
export type RunRecord =
  | {
      readonly type: 'events';
      readonly events: readonly ChunkEvent<unknown>[];
      readonly frames?: readonly string[];
    }
  | ({ readonly type: 'gap' } & RunGap)
  | { readonly type: 'failure'; readonly failure: RunFailure };

/** Sequences `from..to` of a run that the store's retention trimmed: the next event is `to + 1`. */
export interface RunGap {
  readonly from: number;
  readonly to: number;
}
