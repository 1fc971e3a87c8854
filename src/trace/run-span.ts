import type {
  Attributes,
  Context,
  Counter,
  Histogram,
  Link,
  MeterProvider,
  Span,
  SpanKind,
} from '@opentelemetry/api';
import { isSluiceError } from '../core/errors/sluice-error.js';
import { contextManaged, sdkListens, type TraceApi, traceApi } from './trace-api.js';
import {
  activeCarrier,
  carrierOf,
  remoteContext,
  remoteSpanContext,
  type TraceCarrier,
} from './trace-context.js';

/** An attribute value OpenTelemetry takes (`undefined` ones are left out). */
export type TraceAttributeValue = string | number | boolean | readonly string[] | undefined;

/** Attributes of a span or span event. */
export type TraceAttributes = Readonly<Record<string, TraceAttributeValue>>;

/** How a run ended (`sluice.end_reason`; docs/tracing.md says what each means). */
export type SpanEndReason =
  | 'exit'
  | 'signal'
  | 'timeout'
  | 'stall'
  | 'cancel'
  | 'spawn_failure'
  | 'complete'
  | 'error';

/** What {@link RunSpan.end} records besides the reason. */
export interface SpanEndDetails {
  /** The `error.type` of a failed run: sets the span's status to error. Absent: status unset. */
  readonly errorType?: string;
  readonly message?: string;
  /** Lines (events) delivered. */
  readonly lines?: number;
  /** Bytes per stream (`stdout`, `stderr`, `body`). */
  readonly bytes?: Readonly<Record<string, number>>;
  /** How long demand held the producer paused. */
  readonly pausedMs?: number;
  /** Any other attributes to set at the end. */
  readonly attributes?: TraceAttributes;
}

/**
 * The span of one run, and its metrics: {@link startRunSpan} gives it. Every method is safe to
 * call in any order and more than once; after {@link RunSpan.end} only {@link RunSpan.groupGone}
 * still counts (its metric). When no SDK listens it is an object that does nothing.
 */
export interface RunSpan {
  /** Whether an SDK records this span: attributes worth computing only for it are computed only then. */
  readonly recording: boolean;
  /** `false` when no SDK listens: every method does nothing, and the run skips the work only a span uses. */
  readonly observed: boolean;
  /** This span's context to hand to the child (`TRACEPARENT`), a header or `_meta`; `undefined` without a trace. */
  readonly carrier: TraceCarrier | undefined;
  add(attributes: TraceAttributes): void;
  event(name: string, attributes?: TraceAttributes): void;
  /** Ends the span once: the reason, the counts, the status; records the run's metrics. */
  end(reason: SpanEndReason, details?: SpanEndDetails): void;
  /** The run's process group (or cgroup) is gone `killMs` after sluice first killed it. */
  groupGone(killMs: number): void;
  /** Calls `fn` with this span active. */
  within<T>(fn: () => T): T;
}

/** The {@link RunSpan} of every run no SDK listens to (or without `@opentelemetry/api`): it does nothing. */
export const NOOP_RUN_SPAN: RunSpan = Object.freeze({
  recording: false,
  observed: false,
  carrier: undefined,
  add: () => {},
  event: () => {},
  end: () => {},
  groupGone: () => {},
  within: <T>(fn: () => T): T => fn(),
});

/**
 * A failed run's `error.type`, kept low-cardinality as OpenTelemetry's conventions ask: a sluice
 * error's `code`, else an `Error`'s `name`, else `_OTHER`.
 */
export function errorTypeOf(error: unknown): string {
  if (isSluiceError(error)) return error.code;
  if (error instanceof Error) return error.name;
  return '_OTHER';
}

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
 * Starts the span of one run of kind `run` (`exec`, `http`, …) named `name`, a child of the active
 * context (or `options.parent`), and counts it in `sluice.runs.started`. When no SDK listens it
 * gives a {@link RunSpan} that does nothing, carrying only an active remote parent's context
 * (docs/tracing.md, "How it costs").
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
  if (options.parent === undefined && options.links === undefined && !sdkListens()) return unobserved();
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

/** The span of a run nothing listens to: the no-op one, carrying an active remote parent's context if any. */
function unobserved(): RunSpan {
  if (!contextManaged()) return NOOP_RUN_SPAN; // no context manager: nothing is active
  const carrier = activeCarrier();
  return carrier === undefined ? NOOP_RUN_SPAN : Object.freeze({ ...NOOP_RUN_SPAN, carrier });
}

function links(api: TraceApi, carriers: readonly TraceCarrier[]): Link[] {
  const out: Link[] = [];
  for (const carrier of carriers) {
    const context = remoteSpanContext(api, carrier);
    if (context !== undefined) out.push({ context });
  }
  return out;
}

/** A {@link RunSpan} on `@opentelemetry/api`: one span, as the SDK decides, and sluice's metrics. */
class OtelRunSpan implements RunSpan {
  readonly recording: boolean;
  readonly observed = true;
  readonly #api: TraceApi;
  readonly #span: Span;
  readonly #parent: Context;
  readonly #metrics: RunMetrics;
  readonly #metricAttributes: Attributes;
  #carrier: TraceCarrier | undefined | null = null;
  #ended = false;

  constructor(api: TraceApi, span: Span, parent: Context, metrics: RunMetrics, metricAttributes: Attributes) {
    this.#api = api;
    this.#span = span;
    this.#parent = parent;
    this.#metrics = metrics;
    this.#metricAttributes = metricAttributes;
    this.recording = span.isRecording();
    metrics.started.add(1, metricAttributes);
  }

  get carrier(): TraceCarrier | undefined {
    if (this.#carrier === null) this.#carrier = carrierOf(this.#span.spanContext());
    return this.#carrier;
  }

  add(attributes: TraceAttributes): void {
    if (this.recording && !this.#ended) this.#span.setAttributes(definedAttributes(attributes));
  }

  event(name: string, attributes?: TraceAttributes): void {
    if (!this.recording || this.#ended) return;
    this.#span.addEvent(name, attributes === undefined ? undefined : definedAttributes(attributes));
  }

  end(reason: SpanEndReason, details: SpanEndDetails = {}): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#record(reason, details);
    if (this.recording) {
      this.#span.setAttributes(endAttributes(reason, details));
      if (details.errorType !== undefined) {
        const { message } = details;
        this.#span.setStatus({ code: this.#api.SpanStatusCode.ERROR, ...(message ? { message } : {}) });
      }
    }
    this.#span.end();
  }

  groupGone(killMs: number): void {
    this.#metrics.killDuration.record(killMs / 1000, this.#metricAttributes);
    if (this.recording && !this.#ended)
      this.#span.addEvent('sluice.group_gone', { 'sluice.kill_ms': killMs });
  }

  within<T>(fn: () => T): T {
    return this.#api.context.with(this.#api.trace.setSpan(this.#parent, this.#span), fn);
  }

  #record(reason: SpanEndReason, { lines, bytes, pausedMs }: SpanEndDetails): void {
    const metrics = this.#metrics;
    const attributes = this.#metricAttributes;
    metrics.ended.add(1, { ...attributes, 'sluice.end_reason': reason });
    if (lines) metrics.lines.add(lines, attributes);
    if (pausedMs) metrics.pausedTime.add(pausedMs / 1000, attributes);
    for (const stream in bytes) {
      const count = bytes[stream];
      if (count) metrics.bytes.add(count, { ...attributes, 'sluice.stream': stream });
    }
  }
}

/** The attributes {@link OtelRunSpan.end} sets. */
function endAttributes(reason: SpanEndReason, details: SpanEndDetails): Attributes {
  const attributes = definedAttributes({
    ...details.attributes,
    'sluice.end_reason': reason,
    'sluice.lines': details.lines,
    'sluice.paused_ms': details.pausedMs,
    'error.type': details.errorType,
  });
  for (const stream in details.bytes) attributes[`sluice.${stream}.bytes`] = details.bytes[stream] as number;
  return attributes;
}

/** `attributes` without its `undefined` values. */
function definedAttributes(attributes: TraceAttributes): Attributes {
  const out: Attributes = {};
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) out[key] = value as Attributes[string];
  }
  return out;
}

/** The instruments of sluice's meter (`metrics.getMeter('sluice')`), as docs/tracing.md lists them. */
interface RunMetrics {
  readonly started: Counter;
  readonly ended: Counter;
  readonly lines: Counter;
  readonly bytes: Counter;
  readonly pausedTime: Counter;
  readonly killDuration: Histogram;
}

let cached: { readonly provider: MeterProvider; readonly metrics: RunMetrics } | undefined;

/** sluice's instruments, made again when the global meter provider changes. */
function runMetrics(api: TraceApi): RunMetrics {
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
