import type { Attributes, Context, Span } from '@opentelemetry/api';
import { carrierOf } from './carrier-of.js';
import { definedAttributes } from './defined-attributes.js';
import type { RunMetrics } from './run-metrics.js';
import type { RunEndDetails, RunEndReason, RunSpan, TraceAttributes } from './run-span.js';
import type { TraceApi } from './trace-api.js';
import type { TraceCarrier } from './trace-carrier.js';

/**
 * A {@link RunSpan} on `@opentelemetry/api`: one span (recording or not, as the registered SDK
 * decides) and sluice's metrics. Internal to `src/trace`; {@link startRunSpan} makes it.
 *
 * @example
 * ```ts
 * new OtelRunSpan(api, span, parent, runMetrics(api), { 'sluice.run.kind': 'exec' });
 * ```
 */
export class OtelRunSpan implements RunSpan {
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

  end(reason: RunEndReason, details: RunEndDetails = {}): void {
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

  #record(reason: RunEndReason, { lines, bytes, pausedMs }: RunEndDetails): void {
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
function endAttributes(reason: RunEndReason, details: RunEndDetails): Attributes {
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
