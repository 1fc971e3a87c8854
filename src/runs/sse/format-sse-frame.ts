import { optionError } from '../../core/option-error.js';
/**
 * One Server-Sent Events frame. Every field is optional; a frame with only `comment` is a
 * heartbeat.
 */
export interface SseFrame {
  /** The `id:` field (the browser echoes the last one as `Last-Event-ID` when it reconnects). */
  readonly id?: string | number;
  /** The `event:` field (the event type; absent means `message`). */
  readonly event?: string;
  /** The `data:` payload; a multi-line string becomes several `data:` lines. */
  readonly data?: string;
  /** The `retry:` field: the reconnection delay the browser should use, in milliseconds. */
  readonly retry?: number;
  /** A `:` comment line (ignored by clients; keeps proxies and idle timers from closing the stream). */
  readonly comment?: string;
}

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * Serialises one `text/event-stream` frame (WHATWG HTML § 9.2), a multi-line `data` as one
 * `data:` line per line (CR, LF, CRLF). A line break in `id` or `event`, or a NUL in `id`, throws a
 * `TypeError` rather than produce a frame that would parse differently.
 */
export function formatSseFrame(frame: SseFrame): string {
  let text = '';
  if (frame.comment !== undefined) {
    for (const line of frame.comment.split(LINE_BREAK)) text += `: ${line}\n`;
  }
  if (frame.id !== undefined) text += `id: ${checkField('id', String(frame.id))}\n`;
  if (frame.event !== undefined) text += `event: ${checkField('event', frame.event)}\n`;
  if (frame.retry !== undefined) {
    if (!Number.isInteger(frame.retry) || frame.retry < 0) {
      throw optionError('retry', 'a non-negative integer', frame.retry, 'field');
    }
    text += `retry: ${frame.retry}\n`;
  }
  if (frame.data !== undefined) {
    for (const line of frame.data.split(LINE_BREAK)) text += `data: ${line}\n`;
  }
  return `${text}\n`;
}

function checkField(name: string, value: string): string {
  if (LINE_BREAK.test(value) || value.includes('\0')) {
    throw optionError(name, 'free of line breaks and NUL', value, 'field');
  }
  return value;
}
