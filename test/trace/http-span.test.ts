import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { lastValueFrom, take, toArray } from 'rxjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { http } from '../../src/sources/http.js';
import { startTestServer, type TestServer } from '../fixtures/http-server.js';
import { named, registerTestTracing } from './trace-sdk.js';

const tracing = registerTestTracing();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  server.route('/lines', (_req, res) => res.end('one\ntwo\n'));
  server.route('/missing', (_req, res) => res.writeHead(404).end('gone'));
  server.route('/forever', (_req, res) => res.writeHead(200).write('first\n'));
});
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
      'sluice.lines': 4, // response, two lines, end
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
});
