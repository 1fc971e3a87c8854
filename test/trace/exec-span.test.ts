import { fileURLToPath } from 'node:url';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { toAsyncIterable } from '../../src/adapters/to-async-iterable.js';
import { deferred } from '../../src/core/deferred.js';
import { isSpawnError } from '../../src/core/errors/spawn-error.js';
import { stallTimeout } from '../../src/operators/stall-timeout.js';
import { exec } from '../../src/sources/exec.js';
import { named, registerTestTracing } from './trace-sdk.js';

const tracing = registerTestTracing();
afterAll(() => tracing.shutdown());
beforeEach(() => tracing.reset());

const eventNames = (span: ReadableSpan) => span.events.map((event) => event.name);
const eventOf = (span: ReadableSpan, name: string) => span.events.find((event) => event.name === name);
const traceparentOf = (span: ReadableSpan) =>
  `00-${span.spanContext().traceId}-${span.spanContext().spanId}-0${span.spanContext().traceFlags}`;

describe('exec traced with the OpenTelemetry SDK', () => {
  it('is a child of the span active at subscribe, with the process conventions and sluice counts', async () => {
    const tracer = trace.getTracer('test');
    await tracer.startActiveSpan('parent', async (parent) => {
      await lastValueFrom(exec('sh', ['-c', 'echo hello; echo oops >&2']).pipe(toArray()));
      parent.end();
    });
    const span = await tracing.ended(named('exec sh'));
    const parent = await tracing.ended(named('parent'));
    expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
    expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.attributes).toMatchObject({
      'process.executable.name': 'sh',
      'process.exit.code': 0,
      'sluice.run.kind': 'exec',
      'sluice.end_reason': 'exit',
      'sluice.lines': 2,
      'sluice.stdout.bytes': 6,
      'sluice.stderr.bytes': 5,
      'sluice.truncated': false,
    });
    expect(span.attributes['process.pid']).toBeTypeOf('number');
    expect(['group', 'cgroup']).toContain(span.attributes['sluice.containment']);
    expect(span.attributes['process.command_args']).toBeUndefined(); // opt-in: may hold secrets
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(eventNames(span)).toEqual(['sluice.spawn', 'sluice.first_output']);
  });

  it('records the command line only with traceCommandArgs', async () => {
    await lastValueFrom(exec('echo', ['a', 'b'], { traceCommandArgs: true }));
    const span = await tracing.ended(named('exec echo'));
    expect(span.attributes['process.command_args']).toEqual(['echo', 'a', 'b']);
  });

  it('sets error status and error.type on a non-zero exit', async () => {
    await lastValueFrom(exec('sh', ['-c', 'exit 3'], { reject: false }));
    const span = await tracing.ended(named('exec sh'));
    expect(span.attributes).toMatchObject({
      'process.exit.code': 3,
      'error.type': '3',
      'sluice.end_reason': 'exit',
    });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'exit code 3' });
  });

  it('ends a timed-out run with timeout, the kill and the group gone', async () => {
    await lastValueFrom(exec('sleep', ['30'], { timeoutMs: 100, reject: false }));
    const span = await tracing.ended(named('exec sleep'));
    expect(span.attributes).toMatchObject({ 'sluice.end_reason': 'timeout', 'error.type': 'timeout' });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(eventNames(span)).toEqual(['sluice.spawn', 'sluice.timeout', 'sluice.group_gone']);
    expect(eventOf(span, 'sluice.group_gone')?.attributes?.['sluice.kill_ms']).toBeGreaterThanOrEqual(0);
  });

  it('ends a cancelled run (unsubscribe) with cancel once its group is gone, status unset', async () => {
    const source = exec('sh', ['-c', 'echo ready; exec sleep 30']);
    await firstValueFrom(source); // takes the first line, then unsubscribes
    const span = await tracing.ended(named('exec sh'));
    expect(span.attributes).toMatchObject({ 'sluice.end_reason': 'cancel', 'sluice.lines': 1 });
    expect(span.attributes['error.type']).toBeUndefined();
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(eventNames(span)).toEqual([
      'sluice.spawn',
      'sluice.first_output',
      'sluice.cancel',
      'sluice.group_gone',
    ]);
    const cancelled = eventOf(span, 'sluice.cancel')?.time as [number, number];
    const gone = eventOf(span, 'sluice.group_gone')?.time as [number, number];
    expect(gone[0] * 1e9 + gone[1]).toBeGreaterThanOrEqual(cancelled[0] * 1e9 + cancelled[1]);
  });

  it('ends a run that stalled downstream with stall', async () => {
    const stall = deferred<void>();
    const source = exec('yes').pipe(
      stallTimeout({ ms: 200, logger: { warn: () => {} }, onStall: () => stall.resolve() }),
    );
    const events = toAsyncIterable(source, { bufferSize: 4 });
    await events.next(); // then pulls no more: the consumer is stuck
    await stall.promise;
    const span = await tracing.ended(named('exec yes'));
    await events.return?.();
    expect(span.attributes).toMatchObject({ 'sluice.end_reason': 'stall', 'error.type': 'stall' });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(eventOf(span, 'sluice.stall')?.attributes).toEqual({ 'sluice.stall_ms': 200 });
    expect(eventNames(span)).toContain('sluice.group_gone');
  });

  it('ends a run that could not start with spawn_failure', async () => {
    const error = await lastValueFrom(exec('/nonexistent/sluice-no-such-command')).catch((caught) => caught);
    expect(isSpawnError(error)).toBe(true);
    const span = await tracing.ended(named('exec sluice-no-such-command'));
    expect(span.attributes).toMatchObject({ 'sluice.end_reason': 'spawn_failure', 'error.type': 'ENOENT' });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(eventNames(span)).toEqual([]);
  });

  it("puts the run's span in the child's TRACEPARENT, unless propagateTrace is false", async () => {
    const printEnv = ['-c', 'echo "$TRACEPARENT|$TRACESTATE"'];
    const [line] = await lastValueFrom(exec('sh', printEnv).pipe(toArray()));
    const span = await tracing.ended(named('exec sh'));
    expect(line?.content).toBe(`${traceparentOf(span)}|\n`);
    tracing.reset();
    const [off] = await lastValueFrom(exec('sh', printEnv, { propagateTrace: false }).pipe(toArray()));
    expect(off?.content).toBe('|\n');
    const [own] = await lastValueFrom(exec('sh', printEnv, { env: { TRACEPARENT: 'mine' } }).pipe(toArray()));
    expect(own?.content).toBe('mine|\n'); // an env entry of the same name wins
  });

  it('lets a Node child using the OTel SDK join the trace, its span a child of the run', async () => {
    const fixture = fileURLToPath(new URL('../fixtures/otel-child.mjs', import.meta.url));
    const tracer = trace.getTracer('test');
    const lines = await tracer.startActiveSpan('parent', async (parent) => {
      try {
        return await lastValueFrom(exec(process.execPath, [fixture]).pipe(toArray()));
      } finally {
        parent.end();
      }
    });
    const span = await tracing.ended((ended) => ended.name.startsWith('exec node'));
    const child = JSON.parse(String(lines[0]?.content));
    expect(child.traceId).toBe(span.spanContext().traceId);
    expect(child.parentSpanId).toBe(span.spanContext().spanId);
  });

  it('adds up the time a slow consumer held the child paused as sluice.paused_ms', async () => {
    const events = toAsyncIterable(exec('yes'), { bufferSize: 4 });
    let taken = 0;
    for await (const _ of events) {
      await new Promise((resolve) => setTimeout(resolve, 2)); // a slow consumer
      taken += 1;
      if (taken === 100) break;
    }
    const span = await tracing.ended(named('exec yes'));
    expect(span.attributes['sluice.end_reason']).toBe('cancel');
    expect(span.attributes['sluice.paused_ms']).toBeGreaterThan(0);
  });
});
