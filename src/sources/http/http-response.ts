import type { HttpResponseInfo } from './http-types.js';

/**
 * The plain-object view of a `Response` that the `response` event carries: status, status text,
 * headers as a record (lower-case names; repeated headers such as `set-cookie` joined with
 * `', '`) and the final URL (`fallbackUrl` when the response has none, e.g. a synthetic one).
 */
export function toResponseInfo(response: Response, fallbackUrl: string): HttpResponseInfo {
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) {
    const previous = headers[name];
    headers[name] = previous === undefined ? value : `${previous}, ${value}`;
  }
  return {
    status: response.status,
    statusText: response.statusText,
    headers,
    url: response.url === '' ? fallbackUrl : response.url,
  };
}

/** What {@link readErrorBody} returns. */
export interface ErrorBody {
  /** The start of the body, decoded as UTF-8 (an incomplete last character is left out). */
  readonly text: string;
  /** Whether the body was longer than the limit. */
  readonly truncated: boolean;
}

/**
 * Reads the start of an error response's body (at most `limit` bytes are kept, and at most one
 * read more is pulled to know whether there was more), then cancels the rest. A body that fails
 * mid-way gives what was read: the status is the failure being reported, not the body.
 */
export async function readErrorBody(response: Response, limit: number): Promise<ErrorBody> {
  if (response.body === null) return { text: '', truncated: false };
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    while (size <= limit) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      size += value.byteLength;
    }
  } catch {
    // Keep what was read.
  } finally {
    reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(Math.min(size, limit));
  let offset = 0;
  for (const part of parts) {
    if (offset >= bytes.length) break;
    const take = part.subarray(0, bytes.length - offset);
    bytes.set(take, offset);
    offset += take.length;
  }
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const truncated = size > limit;
  return { text: decoder.decode(bytes, { stream: truncated }), truncated };
}
