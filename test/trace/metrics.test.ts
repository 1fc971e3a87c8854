import { metrics } from '@opentelemetry/api';
import {
  type DataPoint,
  type Histogram,
  MeterProvider,
  MetricReader,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { firstValueFrom, lastValueFrom } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { exec } from '../../src/sources/exec.js';
import { registerTestTracing } from './trace-sdk.js';

const tracing = registerTestTracing();

class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}
afterAll(() => tracing.shutdown());

/** The data points of the metric `name`. */
function points(metrics: ResourceMetrics, name: string): DataPoint<number | Histogram>[] {
  const found = metrics.scopeMetrics
    .filter((scope) => scope.scope.name === 'sluice')
    .flatMap((scope) => scope.metrics)
    .find((metric) => metric.descriptor.name === name);
  return (found?.dataPoints ?? []) as DataPoint<number | Histogram>[];
}

const valueWhere = (metrics: ResourceMetrics, name: string, attributes: Record<string, unknown>) =>
  points(metrics, name).find((point) =>
    Object.entries(attributes).every(([key, value]) => point.attributes[key] === value),
  )?.value;

describe("sluice's metrics with the OpenTelemetry SDK", () => {
  it('counts runs started and ended by reason, lines, bytes per stream, and the kill duration', async () => {
    await lastValueFrom(exec('sh', ['-c', 'echo a; echo b; echo err >&2']));
    await lastValueFrom(exec('sh', ['-c', 'exit 4'], { reject: false }));
    await firstValueFrom(exec('sh', ['-c', 'echo ready; exec sleep 30'])); // cancelled after one line
    await tracing.ended((span) => span.attributes['sluice.end_reason'] === 'cancel');
    const metrics = await tracing.collect();
    const exec_ = { 'sluice.run.kind': 'exec' };
    expect(valueWhere(metrics, 'sluice.runs.started', exec_)).toBe(3);
    expect(valueWhere(metrics, 'sluice.runs.ended', { ...exec_, 'sluice.end_reason': 'exit' })).toBe(2);
    expect(valueWhere(metrics, 'sluice.runs.ended', { ...exec_, 'sluice.end_reason': 'cancel' })).toBe(1);
    expect(valueWhere(metrics, 'sluice.lines', exec_)).toBe(4);
    expect(valueWhere(metrics, 'sluice.bytes', { ...exec_, 'sluice.stream': 'stdout' })).toBe(10);
    expect(valueWhere(metrics, 'sluice.bytes', { ...exec_, 'sluice.stream': 'stderr' })).toBe(4);
    const kill = valueWhere(metrics, 'sluice.kill.duration', exec_) as Histogram;
    expect(kill.count).toBe(1);
    expect(kill.min).toBeGreaterThanOrEqual(0);
  });

  it('counts into a meter provider registered after earlier runs', async () => {
    metrics.disable();
    await lastValueFrom(exec('true')); // no provider: the API's no-op meter
    const reader = new CollectingReader();
    const provider = new MeterProvider({ readers: [reader] });
    metrics.setGlobalMeterProvider(provider);
    await lastValueFrom(exec('true'));
    const { resourceMetrics } = await reader.collect();
    expect(valueWhere(resourceMetrics, 'sluice.runs.started', { 'sluice.run.kind': 'exec' })).toBe(1);
    await provider.shutdown();
  });
});
