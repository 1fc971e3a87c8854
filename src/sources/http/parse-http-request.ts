import { isAbortSignal } from '../../core/is-abort-signal.js';
import { optionError } from '../../core/option-error.js';

/** The validated request of an {@link http} call. */
export interface HttpRequest {
  /** The absolute URL, serialised. */
  readonly url: string;
  /** Upper-case method, for messages and errors. */
  readonly method: string;
  /** The caller's init, unchanged (its `signal`, if any, is combined with sluice's own at subscribe). */
  readonly init: RequestInit;
}

/**
 * Validates the `url` and `init` arguments of {@link http}. Throws a `TypeError`
 * naming the bad argument or field.
 *
 * @example
 * ```ts
 * parseHttpRequest('http://127.0.0.1:8080/x', { method: 'post' }).method; // 'POST'
 * parseHttpRequest('/relative', undefined); // TypeError: Expected the `url` argument to be an absolute URL …
 * ```
 */
export function parseHttpRequest(url: unknown, init: unknown): HttpRequest {
  if (!((typeof url === 'string' || url instanceof URL) && URL.canParse(String(url)))) {
    throw optionError('url', 'an absolute URL (string or URL)', url, 'argument');
  }
  const requestInit = init ?? {};
  if (typeof requestInit !== 'object' || Array.isArray(requestInit)) {
    throw optionError('init', 'a RequestInit object', init, 'argument');
  }
  const { method, signal } = requestInit as RequestInit;
  if (method !== undefined && (typeof method !== 'string' || method === '')) {
    throw optionError('init.method', 'a non-empty string', method, 'argument');
  }
  if (signal !== undefined && signal !== null && !isAbortSignal(signal)) {
    throw optionError('init.signal', 'an AbortSignal', signal, 'argument');
  }
  return {
    url: new URL(String(url)).href,
    method: (method ?? 'GET').toUpperCase(),
    init: requestInit as RequestInit,
  };
}
