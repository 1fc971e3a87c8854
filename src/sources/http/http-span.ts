import { type RunSpan, startRunSpan } from '../../trace/run-span.js';
import type { HttpRequest } from './parse-http-request.js';

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/**
 * Starts the client span of one `http` exchange, named after its method as the HTTP semantic
 * conventions say, with `http.request.method`, `url.full` (credentials redacted as
 * `REDACTED:REDACTED`), `server.address` and `server.port`.
 *
 * @example
 * ```ts
 * const span = startHttpSpan(request);
 * ```
 */
export function startHttpSpan(request: HttpRequest): RunSpan {
  const url = new URL(request.url);
  const port = url.port === '' ? DEFAULT_PORTS[url.protocol] : Number(url.port);
  if (url.username !== '' || url.password !== '') {
    url.username = 'REDACTED';
    url.password = 'REDACTED';
  }
  return startRunSpan(
    'http',
    request.method,
    {
      'http.request.method': request.method,
      'url.full': url.href,
      'server.address': url.hostname,
      'server.port': port,
    },
    { spanKind: 'client' },
  );
}
