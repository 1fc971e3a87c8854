import { optionError } from '../core/option-error.js';
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

function parse(name: string, what: string, value: string): number {
  const id = /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw optionError(name, 'a non-negative integer', value, what);
  return id;
}
