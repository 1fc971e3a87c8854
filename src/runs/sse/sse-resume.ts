import type { IncomingMessage, ServerResponse } from 'node:http';
import { optionError } from '../../core/option-error.js';

/**
 * Reads the resume position of an SSE request: the `Last-Event-ID` header (sent by a browser's
 * `EventSource` when it reconnects, or set by `fromFetchStream`), else the `lastEventId` query
 * parameter (used by `fromEventSource` when it opens a fresh connection itself). Returns
 * `undefined` when neither is present; throws a `TypeError` naming the field when the value is
 * not a non-negative integer.
 */
export function readLastEventId(
  header: string | null | undefined,
  url: string | undefined,
): number | undefined {
  if (header !== undefined && header !== null && header !== '')
    return parse('Last-Event-ID', 'header', header);
  const query = url === undefined ? null : new URL(url, 'http://localhost').searchParams.get('lastEventId');
  if (query !== null && query !== '') return parse('lastEventId', 'query parameter', query);
  return undefined;
}

/**
 * The first steps of serving an SSE endpoint over `node:http`: `DELETE` goes to `onDelete`, any
 * method but `GET` gets `405`, a bad resume position `400` naming it. Returns the resume position
 * of a `GET` to stream (`lastEventId`, `undefined` from the start), or `undefined` once the request
 * is answered.
 */
export function acceptSseGet(
  req: IncomingMessage,
  res: ServerResponse,
  onDelete: () => void,
): { lastEventId: number | undefined } | undefined {
  if (req.method === 'DELETE') {
    onDelete();
    return undefined;
  }
  if (req.method !== 'GET') {
    res.writeHead(405, { allow: 'GET, DELETE' }).end();
    return undefined;
  }
  try {
    return { lastEventId: readLastEventId(req.headers['last-event-id'] as string | undefined, req.url) };
  } catch (error) {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end((error as Error).message);
    return undefined;
  }
}

function parse(name: string, what: string, value: string): number {
  const id = /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw optionError(name, 'a non-negative integer', value, what);
  return id;
}

/**
 * What a resume decision needs to know about a run: whether it has ended, whether it failed, and
 * the sequence its next event would have (a `RunInfo`, or a `ReplayLog`, has these).
 */
export interface SseResumeState {
  readonly ended: boolean;
  readonly failed: boolean;
  readonly next: number;
}

/**
 * Whether a client that has seen up to `lastEventId` (`undefined`: nothing yet) is refused rather
 * than streamed to: `204` when the run ended with a final event it already has (nothing follows:
 * an `EventSource` stops reconnecting), `400` when `lastEventId` is ahead of a run that may still
 * go on. `undefined`: stream the events after `lastEventId`. `what` names the run in messages.
 * See `docs/sse.md`.
 */
export function sseResumeRefusal(
  state: SseResumeState,
  lastEventId: number | undefined,
  what: string,
): { readonly status: 204 | 400; readonly message: string } | undefined {
  const cursor = lastEventId === undefined ? 0 : lastEventId + 1;
  if (state.ended && !state.failed && cursor >= state.next) {
    return { status: 204, message: `${capitalize(what)} has ended; nothing follows this event` };
  }
  if (cursor > state.next) {
    return {
      status: 400,
      message: `Last-Event-ID ${lastEventId} is ahead of ${what} (its last event is ${state.next - 1})`,
    };
  }
  return undefined;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
