import type { Counter, Histogram, MeterProvider } from '@opentelemetry/api';
import type { TraceApi } from './trace-api.js';

/** The instruments of sluice's meter (`metrics.getMeter('sluice')`), as docs/tracing.md lists them. */
export interface RunMetrics {
  readonly started: Counter;
  readonly ended: Counter;
  readonly lines: Counter;
  readonly bytes: Counter;
  readonly pausedTime: Counter;
  readonly killDuration: Histogram;
}

let cached: { readonly provider: MeterProvider; readonly metrics: RunMetrics } | undefined;

/**
 * sluice's instruments from the global meter provider, made on first use and made again when
 * the provider changes (an SDK registered after the first run is seen by the next one).
 *
 * @example
 * ```ts
 * runMetrics(api).started.add(1, { 'sluice.run.kind': 'exec' });
 * ```
 */
export function runMetrics(api: TraceApi): RunMetrics {
  const provider = api.metrics.getMeterProvider();
  if (cached?.provider === provider) return cached.metrics;
  const meter = provider.getMeter('sluice');
  const metrics: RunMetrics = {
    started: meter.createCounter('sluice.runs.started', { description: 'Runs started', unit: '{run}' }),
    ended: meter.createCounter('sluice.runs.ended', {
      description: 'Runs ended, by sluice.end_reason',
      unit: '{run}',
    }),
    lines: meter.createCounter('sluice.lines', { description: 'Lines (events) delivered', unit: '{line}' }),
    bytes: meter.createCounter('sluice.bytes', { description: 'Bytes read, by sluice.stream', unit: 'By' }),
    pausedTime: meter.createCounter('sluice.paused_time', {
      description: 'Time producers were paused by their consumers’ demand',
      unit: 's',
    }),
    killDuration: meter.createHistogram('sluice.kill.duration', {
      description: 'From the first kill to the run’s process group being gone',
      unit: 's',
    }),
  };
  cached = { provider, metrics };
  return metrics;
}
