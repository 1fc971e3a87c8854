import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/runs/index.js';
import { pollUntil, processesWithTag } from '../support/processes.js';
import { needs } from '../support/system-tools.js';
import { registerTestTracing } from '../trace/trace-sdk.js';
import { GROUP_OF_SLEEPS } from './connect-in-memory.js';
import { mcpHttpForSuite } from './serve-mcp-http-in-process.js';

// The server runs in this process, traced by the real SDK into memory; the client is the SDK's.
const tracing = registerTestTracing();

/** A fresh W3C `traceparent` of a host's span: its trace id and span id, and the header. */
function hostContext() {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/** The `name` span of trace `traceId`. */
const spanOf = (name: string, traceId: string) => (span: ReadableSpan) =>
  span.name === name && span.spanContext().traceId === traceId;

describe('serveMcpHttp: a task-augmented tools/call is traced as a plain one, for as long as the task runs', () => {
  const server = mcpHttpForSuite({ allow: ['sh'], store: new MemoryRunStore() });
  let client: Client;
  let sessionId: string;
  beforeAll(async () => {
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    client = new Client({ name: 'traced-host', version: '1.0.0' });
    await client.connect(transport);
    sessionId = transport.sessionId as string;
  });
  afterAll(async () => {
    await client?.close();
    await tracing.shutdown();
  });

  /** Starts `argv` as a task, with `_meta` on the request; resolves the task's id. */
  async function startTask(argv: string[], meta: Record<string, string>): Promise<string> {
    const created = await client.request(
      {
        method: 'tools/call',
        params: { name: 'Exec', arguments: { argv }, task: { ttl: 60_000 }, _meta: meta },
      },
      CreateTaskResultSchema,
    );
    return created.task.taskId;
  }

  it('a server span under the request’s _meta.traceparent, open until the task completes, the exec span below it', async () => {
    const host = hostContext();
    const go = join(mkdtempSync(join(tmpdir(), 'sluice-task-span-')), 'go');
    const taskId = await startTask(
      ['sh', '-c', 'while [ ! -e "$1" ]; do sleep 0.02; done; echo done', 'sh', go],
      {
        traceparent: host.traceparent,
        tracestate: 'vendor=abc',
      },
    );
    // The task was created and answered; its call is still running, and so is its span.
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'working' });
    expect(tracing.spans().filter(spanOf('tools/call Exec', host.traceId))).toEqual([]);
    writeFileSync(go, '');
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result.structuredContent).toMatchObject({ exit_code: 0, stdout: 'done\n' });

    const call = await tracing.ended(spanOf('tools/call Exec', host.traceId));
    expect(call.kind).toBe(SpanKind.SERVER);
    expect(call.parentSpanContext?.spanId).toBe(host.spanId);
    expect(call.spanContext().traceState?.serialize()).toBe('vendor=abc');
    expect(call.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'Exec',
      'mcp.session.id': sessionId,
      'sluice.run.kind': 'mcp',
      'sluice.end_reason': 'complete',
    });
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
    const tool = await tracing.ended(spanOf('execute_tool Exec', host.traceId));
    const run = await tracing.ended(spanOf('exec sh', host.traceId));
    expect(tool.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    expect(run.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);

    // The same attributes as a plain tools/call's span.
    const plain = hostContext();
    await client.callTool({
      name: 'Exec',
      arguments: { argv: ['sh', '-c', 'echo plain'] },
      _meta: { traceparent: plain.traceparent },
    });
    const plainCall = await tracing.ended(spanOf('tools/call Exec', plain.traceId));
    expect(Object.keys(call.attributes).sort()).toEqual(Object.keys(plainCall.attributes).sort());
    expect(plainCall.attributes['mcp.session.id']).toBe(sessionId);
  });

  it('a task that fails ends its span with an error status (tool_error)', async () => {
    const host = hostContext();
    const taskId = await startTask(['sh', '-c', 'exit 3'], { traceparent: host.traceparent });
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'failed' });
    const call = await tracing.ended(spanOf('tools/call Exec', host.traceId));
    expect(call.parentSpanContext?.spanId).toBe(host.spanId);
    expect(call.attributes).toMatchObject({ 'error.type': 'tool_error', 'sluice.end_reason': 'error' });
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
  });

  it.skipIf(!needs('linux'))('tasks/cancel ends the span as cancelled once the group is killed', async () => {
    const host = hostContext();
    const tag = `sluice-task-span-${process.pid}-${Date.now()}`;
    const taskId = await startTask(['sh', '-c', GROUP_OF_SLEEPS, tag], { traceparent: host.traceparent });
    expect(await pollUntil(() => processesWithTag(tag).length >= 3, 20_000)).toBe(true);
    expect(tracing.spans().filter(spanOf('tools/call Exec', host.traceId))).toEqual([]);
    expect(await client.experimental.tasks.cancelTask(taskId)).toMatchObject({ status: 'cancelled' });
    const call = await tracing.ended(spanOf('tools/call Exec', host.traceId));
    expect(call.attributes).toMatchObject({ 'sluice.end_reason': 'cancel' });
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
    const run = await tracing.ended(spanOf('exec sh', host.traceId));
    expect(run.attributes).toMatchObject({ 'sluice.end_reason': 'cancel' });
    expect(await pollUntil(() => processesWithTag(tag).length === 0, 2_000)).toBe(true);
  });
});
