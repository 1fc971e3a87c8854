import type { HttpResponseInfo } from './http-types.js';

/**
 * The plain-object view of a `Response` that the `response` event carries: status, status text,
 * headers as a record (lower-case names; repeated headers such as `set-cookie` joined with
 * `', '`) and the final URL (`fallbackUrl` when the response has none, e.g. a synthetic one).
 *
 * @example
 * ```ts
 * toResponseInfo(new Response('hi', { status: 201, headers: { 'x-a': '1' } }), 'http://127.0.0.1/');
 * // { status: 201, statusText: '', headers: { 'content-type': 'text/plain;charset=UTF-8', 'x-a': '1' }, url: 'http://127.0.0.1/' }
 * ```
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
