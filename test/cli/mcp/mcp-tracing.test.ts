import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromMcpToolCall } from '../../../src/mcp/index.js';
import { CLI } from '../../support/sluice-cli.js';
import { newSpanFile, readSpanFile, SPAN_FILE_SETUP } from '../../support/span-file.js';

// The host: this test process, traced by the real SDK into memory.
const exporter = new InMemorySpanExporter();
const contextManager = new AsyncLocalStorageContextManager().enable();
context.setGlobalContextManager(contextManager);
trace.setGlobalTracerProvider(
  new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
);
const tracer = trace.getTracer('host');

describe('sluice mcp over stdio carries the host’s trace (_meta.traceparent)', () => {
  const spans = newSpanFile();
  let client: Client;
  beforeAll(async () => {
    // The server: the real CLI, traced by a setup file loaded with --import (as docs/mcp.md says).
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', SPAN_FILE_SETUP, CLI, 'mcp', '--allow', 'sh'],
      env: { ...(process.env as Record<string, string>), SLUICE_TEST_SPANS: spans },
      stderr: 'pipe',
    });
    client = new Client({ name: 'traced-host', version: '1.0.0' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    trace.disable();
    context.disable();
  });

  it('a fromMcpToolCall inside a host span: the server’s call span is the child of the host’s client span', async () => {
    const hostTraceId = await tracer.startActiveSpan('host', async (host) => {
      const call = fromMcpToolCall(client, {
        name: 'Exec',
        arguments: { argv: ['sh', '-c', 'echo traced'] },
      });
      const result = await lastValueFrom(call);
      expect(result.kind).toBe('result');
      host.end();
      return host.spanContext().traceId;
    });
    const clientSpan = exporter.getFinishedSpans().find((span) => span.name === 'tools/call Exec');
    expect(clientSpan?.kind).toBe(SpanKind.CLIENT);
    expect(clientSpan?.spanContext().traceId).toBe(hostTraceId);
    expect(clientSpan?.attributes).toMatchObject({
      'gen_ai.tool.name': 'Exec',
      'sluice.run.kind': 'mcp-client',
    });

    const server = readSpanFile(spans).find((span) => span.name === 'tools/call Exec');
    expect(server).toMatchObject({
      kind: SpanKind.SERVER,
      traceId: hostTraceId,
      parentSpanId: clientSpan?.spanContext().spanId,
      attributes: {
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'Exec',
        'gen_ai.operation.name': 'execute_tool',
        'sluice.run.kind': 'mcp',
        'sluice.end_reason': 'complete',
      },
    });
    // The Exec tool's span is the server span's child, the command's run its own: the host's trace reaches the command.
    const tool = readSpanFile(spans).find((span) => span.name === 'execute_tool Exec');
    expect(tool).toMatchObject({ traceId: hostTraceId, parentSpanId: server?.spanId });
    const run = readSpanFile(spans).find((span) => span.name === 'exec sh');
    expect(run).toMatchObject({ traceId: hostTraceId, parentSpanId: tool?.spanId });
  });

  it('a plain SDK call with a traceparent of its own in _meta: the server’s span takes it as parent, tracestate kept', async () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const result = await client.callTool({
      name: 'Exec',
      arguments: { argv: ['sh', '-c', 'exit 3'] },
      _meta: { traceparent, tracestate: 'vendor=abc' },
    });
    expect(result.isError).toBe(true);
    const inTrace = readSpanFile(spans).filter((span) => span.traceId === '0af7651916cd43dd8448eb211c80319c');
    expect(inTrace.map((span) => span.name).sort()).toEqual([
      'exec sh',
      'execute_tool Exec',
      'tools/call Exec',
    ]);
    const server = inTrace.filter((span) => span.name === 'tools/call Exec');
    expect(server[0]).toMatchObject({
      parentSpanId: 'b7ad6b7169203331',
      traceState: 'vendor=abc',
      attributes: { 'error.type': 'tool_error', 'sluice.end_reason': 'error' },
      status: { code: 2 },
    });
  });

  it('a call run as a task: the same server span under the request’s traceparent, ended with the task', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const created = await client.request(
      {
        method: 'tools/call',
        params: {
          name: 'Exec',
          arguments: { argv: ['sh', '-c', 'echo tasked'] },
          task: {},
          _meta: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
        },
      },
      CreateTaskResultSchema,
    );
    const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(result.structuredContent).toMatchObject({ stdout: 'tasked\n' });
    // The span ends before the task's result is stored: it is in the file by now.
    const inTrace = readSpanFile(spans).filter((span) => span.traceId === traceId);
    const server = inTrace.find((span) => span.name === 'tools/call Exec');
    expect(server).toMatchObject({
      kind: SpanKind.SERVER,
      parentSpanId: '00f067aa0ba902b7',
      attributes: { 'mcp.method.name': 'tools/call', 'sluice.end_reason': 'complete' },
    });
    const tool = inTrace.find((span) => span.name === 'execute_tool Exec');
    expect(tool?.parentSpanId).toBe(server?.spanId);
    expect(inTrace.find((span) => span.name === 'exec sh')?.parentSpanId).toBe(tool?.spanId);
  });
});
