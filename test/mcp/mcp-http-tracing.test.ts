import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { context, createTraceState, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startMcpClientSpan } from '../../src/mcp/start-mcp-client-span.js';
import { MemoryRunStore } from '../../src/runs/index.js';
import { registerTestTracing } from '../trace/trace-sdk.js';
import { mcpHttpForSuite } from './serve-mcp-http-in-process.js';

const tracing = registerTestTracing();
afterAll(() => tracing.shutdown());
beforeEach(() => tracing.reset());

/** A parent span context with a `tracestate`, as a host's trace would have. */
const parent = {
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  traceFlags: TraceFlags.SAMPLED,
  traceState: createTraceState('host=parent'),
};
const inParent = <T>(run: () => T): T => context.with(trace.setSpanContext(context.active(), parent), run);

describe('startMcpClientSpan: the trace context sent in _meta', () => {
  it('adds its span’s traceparent and tracestate together', () => {
    const { span, params } = inParent(() => startMcpClientSpan({ name: 'Exec', arguments: {} }));
    span.end('complete');
    const meta = params._meta as Record<string, unknown>;
    expect(meta.traceparent).toMatch(new RegExp(`^00-${parent.traceId}-[0-9a-f]{16}-01$`));
    expect(meta.tracestate).toBe('host=parent');
  });

  it('leaves a caller’s own traceparent alone, without adding a tracestate that is not its', () => {
    const own = { traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01`, progressToken: 7 };
    const { span, params } = inParent(() => startMcpClientSpan({ name: 'Exec', arguments: {}, _meta: own }));
    span.end('complete');
    expect(params._meta).toEqual(own);
  });

  it('keeps the caller’s other _meta keys next to the trace context', () => {
    const { span, params } = inParent(() =>
      startMcpClientSpan({ name: 'Exec', arguments: {}, _meta: { progressToken: 'p' } }),
    );
    span.end('complete');
    expect(params._meta).toMatchObject({ progressToken: 'p', tracestate: 'host=parent' });
  });
});

describe('serveMcpHttp: the server span of a tools/call', () => {
  const server = mcpHttpForSuite({ allow: ['sh'], store: new MemoryRunStore() });

  it('carries the session’s id as mcp.session.id', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    const client = new Client({ name: 'sluice-test', version: '1.0.0' });
    await client.connect(transport);
    const sessionId = transport.sessionId;
    expect(sessionId).toMatch(/\S{16,}/);
    await client.callTool({ name: 'Exec', arguments: { argv: ['sh', '-c', 'echo hi'] } });
    const span = await tracing.ended(
      (each) => each.name === 'tools/call Exec' && each.kind === SpanKind.SERVER,
    );
    expect(span.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'mcp.session.id': sessionId });
    await client.close();
  });
});
