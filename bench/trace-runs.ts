import { exec, toAsyncIterable } from '../src/index.js';
import { startRunSpan } from '../src/trace/run-span.js';
import { traceApi } from '../src/trace/trace-api.js';

/** How many runs one `exec-runs*` measurement starts, one after the other, unless told otherwise. */
export const TRACE_RUNS = 200;
/** How many span lifecycles one `exec-spans*` measurement goes through per run of `exec-runs*`. */
const SPAN_CYCLES_PER_RUN = 100;

/** `runs` runs of `true`, each read to its end with `for await` (the pull path); gives the count. */
async function manyRuns(runs: number): Promise<number> {
  for (let run = 0; run < runs; run++) {
    for await (const _event of toAsyncIterable(exec('true'))) {
      // `true` prints nothing: only the exit event
    }
  }
  return runs;
}

/**
 * `cycles` times what tracing does for one exec run, without the process: the span started
 * with its attributes, the spawn and first-output events, the end with the result's attributes
 * and the run's metrics. Gives the count.
 */
async function spanCycles(cycles: number): Promise<number> {
  for (let cycle = 0; cycle < cycles; cycle++) {
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
  return cycles;
}

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
 * see test/support/hide-otel.mjs), and with the SDK recording every span (`exec-runs-sdk`). Their
 * "lines" are runs (the table shows them in runs/s, bench/table.ts; their ratios are targets,
 * bench/summary.ts). `exec-spans` and `exec-spans-sdk` time a run's tracing alone, without a
 * process, 100 span lifecycles per run. Gives the count it went through (the variant's "lines").
 *
 * @example
 * ```ts
 * await timeThroughput(() => traceRunVariant('exec-runs', 200)); // 200 runs
 * ```
 */
export function traceRunVariant(name: string, runs: number): Promise<number> {
  return name.startsWith('exec-spans') ? spanCycles(traceCount(name, runs)) : manyRuns(runs);
}

/** How many runs (span lifecycles) a tracing variant goes through for `runs`: what it must count. */
export function traceCount(name: string, runs: number): number {
  return name.startsWith('exec-spans') ? runs * SPAN_CYCLES_PER_RUN : runs;
}
