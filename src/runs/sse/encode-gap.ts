import { formatSseFrame } from './format-sse-frame.js';

/** Which sequences a client missed because the replay log had already evicted them. */
export interface SseGap {
  /** The first missing sequence (the one the client needed next). */
  readonly from: number;
  /** The last missing sequence; the stream continues with `to + 1`, the oldest retained event. */
  readonly to: number;
}

/**
 * The `gap` control frame: sent instead of a silent skip when a client (a reconnecting one, or a
 * live one that fell behind) needs events the replay log no longer holds. It carries no `id`, so
 * the client's `Last-Event-ID` is unchanged; `data` is `{"from":…,"to":…}`.
 */
export function encodeGap(gap: SseGap): string {
  return formatSseFrame({ event: 'gap', data: JSON.stringify({ from: gap.from, to: gap.to }) });
}
