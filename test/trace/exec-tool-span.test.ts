import { SpanStatusCode, trace } from '@opentelemetry/api';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { dispatchToolCall } from '../../src/kernel/tools/dispatch-tool-call.js';
import { createToolRegistry, registerBuiltinTools } from '../../src/kernel/tools/tool-registry.js';
import { named, registerTestTracing } from './trace-sdk.js';

const tracing = registerTestTracing();
afterAll(() => tracing.shutdown());
beforeEach(() => tracing.reset());
const registry = registerBuiltinTools(createToolRegistry());

const call = (args: Record<string, unknown>) =>
  dispatchToolCall({ msg: { op: 'tool_call', id: 1, name: 'Exec', args }, pid: 7, registry });

describe('the Exec tool traced', () => {
  it('is an execute_tool span holding the run’s span, under the caller’s', async () => {
    await trace.getTracer('test').startActiveSpan('agent', async (agent) => {
      await call({ argv: ['sh', '-c', 'echo hi; exit 2'] });
      agent.end();
    });
    const tool = await tracing.ended(named('execute_tool Exec'));
    const run = await tracing.ended(named('exec sh'));
    const agent = await tracing.ended(named('agent'));
    expect(tool.parentSpanContext?.spanId).toBe(agent.spanContext().spanId);
    expect(run.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
    expect(tool.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'Exec',
      'sluice.end_reason': 'exit',
    });
    expect(tool.status.code).toBe(SpanStatusCode.UNSET); // the call answered; the run's span has the failure
    expect(run.attributes).toMatchObject({ 'process.exit.code': 2, 'error.type': '2' });
  });

  it('ends with spawn_failure and error status when the command cannot start', async () => {
    const result = await call({ argv: ['/nonexistent/sluice-tool-command'] });
    expect(result.ok).toBe(false);
    const tool = await tracing.ended(named('execute_tool Exec'));
    expect(tool.attributes).toMatchObject({
      'sluice.end_reason': 'spawn_failure',
      'error.type': 'SPAWN_FAILED',
    });
    expect(tool.status.code).toBe(SpanStatusCode.ERROR);
  });
});
