import { type RunSpan, startRunSpan } from '../../trace/run-span.js';
import type { TraceCarrier } from '../../trace/trace-context.js';
import type { HttpRequest } from './read-http-options.js';

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/**
 * Starts the client span of one `http` exchange, named after its method as the HTTP semantic
 * conventions say, with `http.request.method`, `url.full` (credentials redacted as
 * `REDACTED:REDACTED`), `server.address` and `server.port`.
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

/**
 * `headers` (a request's `init.headers`, in whichever of fetch's three forms) with the W3C Trace
 * Context headers of `carrier` added — `traceparent`, and `tracestate` when the span has one —
 * in the same form, so that a custom `fetch` sees the shape it was given. Headers the caller set
 * win: when either name is there already (in any case), `headers` is returned unchanged.
 */
export function traceHeaders(
  headers: HeadersInit | undefined,
  carrier: TraceCarrier,
): HeadersInit | undefined {
  const added: [string, string][] = [['traceparent', carrier.traceparent]];
  if (carrier.tracestate) added.push(['tracestate', carrier.tracestate]);
  if (headers instanceof Headers) {
    if (headers.has('traceparent') || headers.has('tracestate')) return headers;
    const copy = new Headers(headers);
    for (const [name, value] of added) copy.set(name, value);
    return copy;
  }
  const entries = Array.isArray(headers) ? headers : Object.entries(headers ?? {});
  if (entries.some(([name]) => isTraceHeader(name))) return headers;
  return Array.isArray(headers) ? [...headers, ...added] : { ...headers, ...Object.fromEntries(added) };
}

function isTraceHeader(name: string | undefined): boolean {
  const lower = name?.toLowerCase();
  return lower === 'traceparent' || lower === 'tracestate';
}
