import type { ChunkEvent } from '../../core/chunk.js';
import { toRunFailure } from '../run-failure.js';
import type { RunFailure } from '../run-record.js';
import { formatSseFrame } from './format-sse-frame.js';

// The SSE frames of a run's records (docs/sse.md): an event, a gap, a failure. An event's frame
// has an `id` (its sequence), the control frames have none, so a client's `Last-Event-ID` always
// names the last event it got.

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

/** Which sequences a client missed because the replay log had already evicted them. */
export interface SseGap {
  /** The first missing sequence (the one the client needed next). */
  readonly from: number;
  /** The last missing sequence; the stream continues with `to + 1`, the oldest retained event. */
  readonly to: number;
}

/**
 * The `gap` control frame: sent instead of a silent skip when a client (a reconnecting one, or a
 * live one that fell behind) needs events the replay log no longer holds. `data` is
 * `{"from":…,"to":…}`.
 */
export function encodeGap(gap: SseGap): string {
  return formatSseFrame({ event: 'gap', data: JSON.stringify({ from: gap.from, to: gap.to }) });
}

/**
 * The `failure` control frame of a failure as a run store keeps it: `data` is
 * `{"code":…,"name":…,"message":…}`; a client resuming after the last event gets the failure again.
 */
export function encodeRunFailure(failure: RunFailure): string {
  const { code, name, message } = failure;
  return formatSseFrame({ event: 'failure', data: JSON.stringify({ code, name, message }) });
}

/**
 * The `failure` control frame of an error the stream's source ended with, after the events before
 * it (`code` is the sluice error code, or `'STREAM_FAILED'` for an error that has none).
 */
export function encodeFailure(error: unknown): string {
  return encodeRunFailure(toRunFailure(error));
}
