import { exec, toAsyncIterable } from '../src/index.js';
import { traceApi } from '../src/trace/trace-api.js';
import type { ThroughputVariant } from './throughput-raw.js';

/** How many runs one measurement starts, one after the other. */
export const TRACE_RUNS = 200;

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
 * Prepares a tracing variant's process before its clock starts: a `*-no-otel` one loses
 * `@opentelemetry/api` (bench/hide-otel.ts); `exec-runs-sdk` registers the OpenTelemetry SDK
 * with a processor that drops every span (the recording cost only).
 *
 * @example
 * ```ts
 * await prepareTraceVariant('exec-runs-no-otel'); // before sluice runs anything
 * ```
 */
export async function prepareTraceVariant(name: string): Promise<void> {
  if (name.endsWith('-no-otel')) await import('./hide-otel.js');
  if (name !== 'exec-runs-sdk') return;
  const { BasicTracerProvider } = await import('@opentelemetry/sdk-trace-base');
  const dropping = { onStart() {}, onEnd() {}, forceFlush: async () => {}, shutdown: async () => {} };
  traceApi()?.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [dropping] }));
}

/**
 * The per-run cost of tracing (docs/tracing.md): many short runs on the pull path, with
 * `@opentelemetry/api` installed but no SDK (`exec-runs`), without the API (`exec-runs-no-otel`,
 * see bench/hide-otel.ts), and with the SDK recording every span (`exec-runs-sdk`). Their "lines"
 * are runs (the table shows them in runs/s, bench/table.ts; their ratios are targets,
 * bench/summary.ts). `exec-iterable-no-otel` and `exec-push-no-otel` are the hot path without the API.
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
};
