import type { ChunkEvent } from '../../core/chunk.js';
import { toRunFailure } from '../run-failure.js';
import type { RunFailure, RunGap } from '../run-record.js';
import { formatSseFrame } from './format-sse-frame.js';

// The SSE frames of a run's records (docs/sse.md): an event, a gap, a failure. An event's frame
// has an `id` (its sequence), the control frames have none, so a client's `Last-Event-ID` always
// names the last event it got.

/**
 * The SSE frame of one chunk event: `id` its sequence, `event` its kind, `data` the event as JSON
 * (so `Last-Event-ID` resumes exactly). Throws what `JSON.stringify` throws.
 */
export function encodeChunkEvent(event: ChunkEvent<unknown>): string {
  return formatSseFrame({
    id: event.sequence,
    event: event.kind,
    data: JSON.stringify(chunkEventBody(event)),
  });
}

/** The event as JSON sends it, in an SSE frame and a Redis batch alike (`metadata` only when it has one). */
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
 * The chunk event of an {@link encodeChunkEvent} frame: an equal copy, as JSON has it. Only for
 * frames sluice encoded itself; a browser decodes with `decodeSseMessage`, which checks them.
 */
export function decodeChunkFrame(frame: string): ChunkEvent<unknown> {
  const data = frame.indexOf('\ndata: ') + 7;
  return JSON.parse(frame.slice(data, frame.length - 2)) as ChunkEvent<unknown>;
}

/** The `gap` control frame (`data`: `{"from":…,"to":…}`): events a client needs that are no longer held. */
export function encodeGap(gap: RunGap): string {
  return formatSseFrame({ event: 'gap', data: JSON.stringify({ from: gap.from, to: gap.to }) });
}

/** The `failure` control frame (`data`: `{"code":…,"name":…,"message":…}`). */
export function encodeRunFailure(failure: RunFailure): string {
  const { code, name, message } = failure;
  return formatSseFrame({ event: 'failure', data: JSON.stringify({ code, name, message }) });
}

/** The `failure` control frame of an error (`code` `'STREAM_FAILED'` when it has none). */
export function encodeFailure(error: unknown): string {
  return encodeRunFailure(toRunFailure(error));
}
