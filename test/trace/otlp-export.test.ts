import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { lastValueFrom } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { exec } from '../../src/sources/exec.js';

/** A small OTLP/HTTP receiver on 127.0.0.1: keeps the JSON bodies POSTed to /v1/traces. */
async function startReceiver() {
  const bodies: unknown[] = [];
  const waiters: Array<() => void> = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.method === 'POST') {
        bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        for (const waiter of waiters.splice(0)) waiter();
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    bodies,
    received: () => new Promise<void>((resolve) => (bodies.length > 0 ? resolve() : waiters.push(resolve))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const receiver = await startReceiver();
const provider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: receiver.url }))],
});
trace.setGlobalTracerProvider(provider);
afterAll(async () => {
  trace.disable();
  await provider.shutdown();
  await receiver.close();
});

interface OtlpSpan {
  name: string;
  attributes: { key: string; value: Record<string, unknown> }[];
  events: { name: string }[];
}

describe('an exec span exported over OTLP/HTTP', () => {
  it('reaches an OTLP receiver with its name, attributes and events', async () => {
    await lastValueFrom(exec('sh', ['-c', 'echo over-the-wire']));
    await provider.forceFlush();
    await receiver.received();
    const spans = (receiver.bodies as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }[])
      .flatMap((body) => body.resourceSpans)
      .flatMap((resource) => resource.scopeSpans)
      .flatMap((scope) => scope.spans);
    const span = spans.find((candidate) => candidate.name === 'exec sh');
    expect(span).toBeDefined();
    const attribute = (key: string) => span?.attributes.find((item) => item.key === key)?.value;
    expect(attribute('process.executable.name')).toEqual({ stringValue: 'sh' });
    expect(attribute('sluice.end_reason')).toEqual({ stringValue: 'exit' });
    expect(attribute('sluice.stdout.bytes')).toEqual({ intValue: 14 });
    expect(span?.events.map((event) => event.name)).toEqual(['sluice.spawn', 'sluice.first_output']);
  });
});
