import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { lastValueFrom, take, toArray } from 'rxjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HttpOptions } from '../../src/sources/http/http-types.js';
import { http } from '../../src/sources/http.js';
import { withRemoteParent } from '../../src/trace/trace-context.js';
import { startTestServer, type TestServer } from '../fixtures/http-server.js';
import { named, registerTestTracing } from './trace-sdk.js';

const tracing = registerTestTracing();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  server.route('/lines', (_req, res) => res.end('one\ntwo\n'));
  server.route('/missing', (_req, res) => res.writeHead(404).end('gone'));
  server.route('/forever', (_req, res) => res.writeHead(200).write('first\n'));
  server.route('/headers', (req, res) => res.end(JSON.stringify(req.headers)));
});

/** The request headers the server received for one `http()` of `/headers`, and the exchange's span. */
async function sentHeaders(init?: RequestInit, options?: HttpOptions) {
  const events = await lastValueFrom(
    http(server.url('/headers'), init, { ...options, lines: true }).pipe(toArray()),
  );
  const body = events.flatMap((event) => (event.kind === 'body' ? [event.content] : [])).join('');
  const span = await tracing.ended(named('GET'));
  return { headers: JSON.parse(body) as Record<string, string | undefined>, span };
}
afterAll(async () => {
  await server.close();
  await tracing.shutdown();
});
beforeEach(() => tracing.reset());

describe('http traced with the OpenTelemetry SDK', () => {
  it('is a client span with the HTTP conventions, a child of the active span', async () => {
    const tracer = trace.getTracer('test');
    await tracer.startActiveSpan('parent', async (parent) => {
      await lastValueFrom(http(server.url('/lines'), undefined, { lines: true }).pipe(toArray()));
      parent.end();
    });
    const span = await tracing.ended(named('GET'));
    const parent = await tracing.ended(named('parent'));
    const port = Number(new URL(server.origin).port);
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(span.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.full': server.url('/lines'),
      'server.address': '127.0.0.1',
      'server.port': port,
      'http.response.status_code': 200,
      'sluice.run.kind': 'http',
      'sluice.end_reason': 'complete',
      'sluice.body.bytes': 8,
      'sluice.lines': 2,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.events.map((event) => event.name)).toEqual(['sluice.first_output']);
  });

  it('sets error status and error.type to the status code of a rejected response', async () => {
    await lastValueFrom(http(server.url('/missing'))).catch(() => undefined);
    const span = await tracing.ended(named('GET'));
    expect(span.attributes).toMatchObject({ 'http.response.status_code': 404, 'error.type': '404' });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('ends an unsubscribed exchange with cancel, and a refused connection with its error code', async () => {
    await lastValueFrom(http(server.url('/forever')).pipe(take(2)));
    const cancelled = await tracing.ended(named('GET'));
    expect(cancelled.attributes['sluice.end_reason']).toBe('cancel');
    expect(cancelled.status.code).toBe(SpanStatusCode.UNSET);
    tracing.reset();
    const closed = await startTestServer();
    await closed.close(); // nothing listens on its port any more
    await lastValueFrom(http(closed.url('/'))).catch(() => undefined);
    const refused = await tracing.ended(named('GET'));
    expect(refused.attributes).toMatchObject({ 'sluice.end_reason': 'error', 'error.type': 'ECONNREFUSED' });
  });

  it('redacts credentials in url.full', async () => {
    const url = server.url('/lines').replace('http://', 'http://user:secret@');
    await lastValueFrom(http(url)).catch(() => undefined);
    const span = await tracing.ended(named('GET'));
    expect(span.attributes['url.full']).toBe(
      server.url('/lines').replace('http://', 'http://REDACTED:REDACTED@'),
    );
  });

  it("sends the client span's context as traceparent (and tracestate) to the server", async () => {
    const remote = {
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      tracestate: 'v=1',
    };
    const { headers, span } = await withRemoteParent(remote, () => sentHeaders());
    const { traceId, spanId } = span.spanContext();
    expect(traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736'); // the client span continues the remote trace
    expect(headers.traceparent).toBe(`00-${traceId}-${spanId}-01`);
    expect(headers.tracestate).toBe('v=1');
  });

  it('sends no trace headers with propagateTrace: false', async () => {
    const { headers, span } = await sentHeaders(undefined, { propagateTrace: false });
    expect(span.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/); // traced all the same
    expect(headers.traceparent).toBeUndefined();
    expect(headers.tracestate).toBeUndefined();
  });

  it('never overwrites a traceparent the caller set, whatever the headers form', async () => {
    const mine = '00-11111111111111111111111111111111-2222222222222222-01';
    const asRecord = await sentHeaders({ headers: { TraceParent: mine, accept: 'text/plain' } });
    expect(asRecord.headers).toMatchObject({ traceparent: mine, accept: 'text/plain' });
    tracing.reset();
    const asHeaders = await sentHeaders({ headers: new Headers({ traceparent: mine }) });
    expect(asHeaders.headers.traceparent).toBe(mine);
    tracing.reset();
    const added = await sentHeaders({ headers: [['accept', 'text/plain']] });
    const { traceId, spanId } = added.span.spanContext();
    expect(added.headers).toMatchObject({ accept: 'text/plain', traceparent: `00-${traceId}-${spanId}-01` });
  });
});
