import type { Context, Link, SpanKind } from '@opentelemetry/api';
import { definedAttributes } from './defined-attributes.js';
import { NOOP_RUN_SPAN } from './noop-run-span.js';
import { otelRegistered } from './otel-registered.js';
import { OtelRunSpan } from './otel-run-span.js';
import { parseTraceparent } from './parse-traceparent.js';
import { remoteContext } from './remote-context.js';
import { runMetrics } from './run-metrics.js';
import type { RunSpan, TraceAttributes } from './run-span.js';
import { type TraceApi, traceApi } from './trace-api.js';
import type { TraceCarrier } from './trace-carrier.js';

/** Options of {@link startRunSpan}. */
export interface RunSpanOptions {
  /** The span kind (default `'internal'`; `'client'` for an outgoing request, `'server'` for an incoming call). */
  readonly spanKind?: 'internal' | 'client' | 'server' | 'producer' | 'consumer';
  /** A remote parent (a `TRACEPARENT`, an MCP `_meta.traceparent`) instead of the active context's span. */
  readonly parent?: TraceCarrier;
  /** Runs this one is linked to (a Redis run's follower links to the run's trace). */
  readonly links?: readonly TraceCarrier[];
}

const SPAN_KINDS = { internal: 0, server: 1, client: 2, producer: 3, consumer: 4 } as const;

/**
 * Starts the span of one run (`run`: `exec`, `http`, … — its `sluice.run.kind`, also the metrics'
 * dimension) named `name`, as a child of the active context (or `options.parent`), and counts it
 * in `sluice.runs.started`. Without `@opentelemetry/api`, or with nothing registered with it and
 * no `options.parent`, it gives a {@link RunSpan} that does nothing (the API not even loaded); with
 * the API but no SDK and a parent, a non-recording one (cheap: see docs/tracing.md).
 *
 * @example
 * ```ts
 * const span = startRunSpan('http', 'GET', { 'http.request.method': 'GET' }, { spanKind: 'client' });
 * span.end('complete', { attributes: { 'http.response.status_code': 200 } });
 * ```
 */
export function startRunSpan(
  run: string,
  name: string,
  attributes: TraceAttributes = {},
  options: RunSpanOptions = {},
): RunSpan {
  // Nothing registered and no remote parent: the span could only be a no-op (the API stays unloaded).
  if (options.parent === undefined && !otelRegistered()) return NOOP_RUN_SPAN;
  const api = traceApi();
  if (api === undefined) return NOOP_RUN_SPAN;
  const active = api.context.active();
  const parent = options.parent === undefined ? active : remoteContext(api, options.parent, active);
  const kindAttribute = { 'sluice.run.kind': run };
  const span = api.trace.getTracer('sluice').startSpan(
    name,
    {
      kind: SPAN_KINDS[options.spanKind ?? 'internal'] as SpanKind,
      attributes: definedAttributes({ ...attributes, ...kindAttribute }),
      ...(options.links === undefined ? {} : { links: links(api, options.links) }),
    },
    parent,
  );
  return new OtelRunSpan(api, span, parent as Context, runMetrics(api), kindAttribute);
}

function links(api: TraceApi, carriers: readonly TraceCarrier[]): Link[] {
  const out: Link[] = [];
  for (const carrier of carriers) {
    const parsed = parseTraceparent(carrier.traceparent);
    if (parsed === undefined) continue;
    const traceState = carrier.tracestate ? api.createTraceState(carrier.tracestate) : undefined;
    out.push({ context: { ...parsed, isRemote: true, ...(traceState ? { traceState } : {}) } });
  }
  return out;
}
