import { exec, toAsyncIterable } from '../src/index.js';
import { startRunSpan } from '../src/trace/start-run-span.js';
import { traceApi } from '../src/trace/trace-api.js';
import type { ThroughputVariant } from './throughput-raw.js';

/** How many runs one measurement starts, one after the other. */
export const TRACE_RUNS = 200;
/** How many span lifecycles one `exec-spans*` measurement goes through. */
export const SPAN_CYCLES = 20_000;

/** `TRACE_RUNS` runs of `true`, each read to its end with `for await` (the pull path); gives the count. */
async function manyRuns(): Promise<number> {
  for (let run = 0; run < TRACE_RUNS; run++) {
    for await (const _event of toAsyncIterable(exec('true'))) {
      // `true` prints nothing: only the exit event
    }
  }
  return TRACE_RUNS;
}

/**
 * `SPAN_CYCLES` times what tracing does for one exec run, without the process: the span started
 * with its attributes, the spawn and first-output events, the end with the result's attributes
 * and the run's metrics. Gives the count.
 */
async function spanCycles(): Promise<number> {
  for (let cycle = 0; cycle < SPAN_CYCLES; cycle++) {
    const span = startRunSpan('exec', 'exec true', { 'process.executable.name': 'true' });
    span.add({ 'process.pid': 4242 });
    span.event('sluice.spawn', { 'process.pid': 4242 });
    span.event('sluice.first_output', { 'sluice.stream': 'stdout' });
    span.end('exit', {
      lines: 12,
      bytes: { stdout: 720, stderr: 0 },
      pausedMs: 0,
      attributes: { 'process.exit.code': 0, 'sluice.truncated': false, 'sluice.containment': 'group' },
    });
  }
  return SPAN_CYCLES;
}

/** How many runs (span lifecycles) each tracing variant counts. */
export const TRACE_COUNTS: Readonly<Record<string, number>> = {
  'exec-runs': TRACE_RUNS,
  'exec-runs-no-otel': TRACE_RUNS,
  'exec-runs-sdk': TRACE_RUNS,
  'exec-spans': SPAN_CYCLES,
  'exec-spans-sdk': SPAN_CYCLES,
};

/**
 * Prepares a tracing variant's process before its clock starts: a `*-no-otel` one loses
 * `@opentelemetry/api` (test/support/hide-otel.mjs); `exec-runs-sdk` and `exec-spans-sdk` register the OpenTelemetry SDK
 * with a processor that drops every span (the recording cost only).
 *
 * @example
 * ```ts
 * await prepareTraceVariant('exec-runs-no-otel'); // before sluice runs anything
 * ```
 */
export async function prepareTraceVariant(name: string): Promise<void> {
  if (name.endsWith('-no-otel')) await import(new URL('../test/support/hide-otel.mjs', import.meta.url).href);
  if (!name.endsWith('-sdk')) return;
  const { BasicTracerProvider } = await import('@opentelemetry/sdk-trace-base');
  const dropping = { onStart() {}, onEnd() {}, forceFlush: async () => {}, shutdown: async () => {} };
  traceApi()?.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [dropping] }));
}

/**
 * The per-run cost of tracing (docs/tracing.md): many short runs on the pull path, with
 * `@opentelemetry/api` installed but no SDK (`exec-runs`), without the API (`exec-runs-no-otel`,
 * see test/support/hide-otel.mjs), and with the SDK recording every span (`exec-runs-sdk`). Their "lines"
 * are runs (the table shows them in runs/s, bench/table.ts; their ratios are targets,
 * bench/summary.ts). `exec-spans` and `exec-spans-sdk` time a run's tracing alone, without a
 * process. `exec-iterable-no-otel` and `exec-push-no-otel` are the hot path without the API.
 *
 * @example
 * ```ts
 * const runs = await traceRunVariants['exec-runs']('cat', []);
 * ```
 */
export const traceRunVariants: Record<string, ThroughputVariant> = {
  'exec-runs': manyRuns,
  'exec-runs-no-otel': manyRuns,
  'exec-runs-sdk': manyRuns,
  'exec-spans': spanCycles,
  'exec-spans-sdk': spanCycles,
};
