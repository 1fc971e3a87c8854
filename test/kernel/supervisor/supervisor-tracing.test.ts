import { fileURLToPath } from 'node:url';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { createSupervisor } from '../../../src/kernel/supervisor/create-supervisor.js';
import { needs } from '../../support/system-tools.js';

const exporter = new InMemorySpanExporter();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(
  new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
);
afterAll(() => {
  trace.disable();
  context.disable();
});
const tracer = trace.getTracer('test');
const pythonRunner = ['python3', fileURLToPath(new URL('../../fixtures/runner-exec.py', import.meta.url))];
const named = (name: string) => exporter.getFinishedSpans().filter((span) => span.name === name);
const parentOf = (span: ReadableSpan | undefined) => span?.parentSpanContext?.spanId;

describe.skipIf(!needs('linux', 'python3'))('the supervisor traced (a span per runner)', () => {
  it('a child runner: its span under the caller’s, its process and its Exec tool call under it', async () => {
    exporter.reset();
    const supervisor = createSupervisor();
    const info = await tracer.startActiveSpan('caller', async (caller) => {
      const handle = supervisor.spawn(pythonRunner, {
        env: { RUNNER_EXEC_ARGS: JSON.stringify({ argv: ['sh', '-c', 'echo from-tool'] }) },
      });
      const exit = await handle.wait({ timeoutMs: 60_000 });
      caller.end();
      return exit;
    });
    expect(info.exitCode).toBe(0);
    const [caller] = named('caller');
    const [runner] = named('runner python3');
    expect(runner?.spanContext().traceId).toBe(caller?.spanContext().traceId);
    expect(parentOf(runner)).toBe(caller?.spanContext().spanId);
    expect(runner?.attributes).toMatchObject({
      'sluice.run.kind': 'runner',
      'sluice.kernel.pid': 1,
      'sluice.end_reason': 'exit',
      'process.exit.code': 0,
      'sluice.tool_calls': 1,
      'sluice.lines': 2,
    });
    // The runner's own process and its Exec tool call are the runner span's children.
    expect(parentOf(named('exec python3')[0])).toBe(runner?.spanContext().spanId);
    const [tool] = named('execute_tool Exec');
    expect(parentOf(tool)).toBe(runner?.spanContext().spanId);
    expect(parentOf(named('exec sh')[0])).toBe(tool?.spanContext().spanId);
  });

  it('an in-process runner killed, and one timed out: cancel and timeout', async () => {
    exporter.reset();
    const supervisor = createSupervisor();
    const killed = supervisor.spawn(() => new Promise<void>(() => {}));
    killed.kill();
    await killed.wait();
    const timedOut = supervisor.spawn(() => new Promise<void>(() => {}));
    expect((await timedOut.wait({ timeoutMs: 50 })).timedOut).toBe(true);
    const spans = named('runner in-process');
    expect(
      spans.map((span) => [span.attributes['sluice.kernel.pid'], span.attributes['sluice.end_reason']]),
    ).toEqual([
      [1, 'cancel'],
      [2, 'timeout'],
    ]);
    expect(spans[1]?.status.code).toBe(2); // error: a timeout is a failure
    expect(spans[0]?.status.code).toBe(0); // unset: a kill is no failure of the runner
  });
});
