import type { Context, SpanContext } from '@opentelemetry/api';
import { contextManaged, type TraceApi, traceApi } from './trace-api.js';

/**
 * A trace context in W3C Trace Context's text form, as it travels between processes: the
 * `traceparent` (`00-<trace id>-<span id>-<flags>`) and the vendor `tracestate`, passed through
 * unchanged. The child's environment carries it as `TRACEPARENT`/`TRACESTATE` (docs/tracing.md).
 */
export interface TraceCarrier {
  readonly traceparent: string;
  readonly tracestate?: string;
}

/** The parts of a W3C `traceparent`. */
export interface ParsedTraceparent {
  /** 32 lowercase hex digits, not all zero. */
  readonly traceId: string;
  /** 16 lowercase hex digits, not all zero: the parent span. */
  readonly spanId: string;
  /** The trace flags (bit 0: sampled). */
  readonly traceFlags: number;
}

const HEX = /^[0-9a-f]+$/;
const ZEROS = /^0+$/;

/**
 * Parses a W3C `traceparent`, or gives `undefined` for anything malformed (wrong length, upper-case
 * or non-hex digits, an all-zero id, version `ff`); a later version is read by its first four fields.
 */
export function parseTraceparent(value: unknown): ParsedTraceparent | undefined {
  if (typeof value !== 'string' || value.length < 55) return undefined;
  const version = value.slice(0, 2);
  if (!HEX.test(version) || version === 'ff') return undefined;
  if (version === '00' ? value.length !== 55 : value.length > 55 && value[55] !== '-') return undefined;
  if (value[2] !== '-' || value[35] !== '-' || value[52] !== '-') return undefined;
  const traceId = value.slice(3, 35);
  const spanId = value.slice(36, 52);
  const flags = value.slice(53, 55);
  if (!HEX.test(traceId) || !HEX.test(spanId) || !HEX.test(flags)) return undefined;
  if (ZEROS.test(traceId) || ZEROS.test(spanId)) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16) };
}

/** The W3C `traceparent` (version `00`) of a span context. */
export function formatTraceparent(context: ParsedTraceparent): string {
  const flags = (context.traceFlags & 0xff).toString(16).padStart(2, '0');
  return `00-${context.traceId}-${context.spanId}-${flags}`;
}

/** The {@link TraceCarrier} of a span context; `undefined` for an invalid one (never propagated). */
export function carrierOf(context: SpanContext): TraceCarrier | undefined {
  const { traceId, spanId } = context;
  if (traceId.length !== 32 || spanId.length !== 16) return undefined;
  if (traceId === '00000000000000000000000000000000' || spanId === '0000000000000000') return undefined;
  const traceparent = formatTraceparent(context);
  const tracestate = context.traceState?.serialize();
  return tracestate ? { traceparent, tracestate } : { traceparent };
}

/** The {@link TraceCarrier} of the active span (an MCP call's `_meta.traceparent`), if any. */
export function activeCarrier(): TraceCarrier | undefined {
  const span = traceApi()?.trace.getActiveSpan();
  return span === undefined ? undefined : carrierOf(span.spanContext());
}

/** The remote span context `carrier` names (its `tracestate` kept), or `undefined` when its `traceparent` does not parse. */
export function remoteSpanContext(api: TraceApi, carrier: TraceCarrier): SpanContext | undefined {
  const parsed = parseTraceparent(carrier.traceparent);
  if (parsed === undefined) return undefined;
  const traceState = carrier.tracestate ? api.createTraceState(carrier.tracestate) : undefined;
  return { ...parsed, isRemote: true, ...(traceState ? { traceState } : {}) };
}

/** `base` with the remote span of `carrier` as its parent span, or `base` itself when the `traceparent` does not parse. */
export function remoteContext(api: TraceApi, carrier: TraceCarrier, base: Context): Context {
  const remote = remoteSpanContext(api, carrier);
  return remote === undefined ? base : api.trace.setSpanContext(base, remote);
}

/**
 * Calls `fn` with the remote span of `carrier` as the active parent, so that every run `fn`
 * starts (a subscribe to `exec`, `http`) becomes its child — how a `TRACEPARENT` from the
 * environment or an MCP request's `_meta.traceparent` joins a trace. Without `@opentelemetry/api`,
 * without a carrier, or with a `traceparent` that does not parse, `fn` just runs.
 *
 * @example
 * ```ts
 * const carrier = { traceparent: process.env.TRACEPARENT ?? '', tracestate: process.env.TRACESTATE };
 * withRemoteParent(carrier, () => exec('make').subscribe(console.log));
 * ```
 */
export function withRemoteParent<T>(carrier: TraceCarrier | undefined, fn: () => T): T {
  if (carrier === undefined) return fn(); // no remote parent: the API need not even be loaded
  if (!contextManaged()) return fn();
  const api = traceApi();
  if (api === undefined) return fn();
  const active = api.context.active();
  const parent = remoteContext(api, carrier, active);
  return parent === active ? fn() : api.context.with(parent, fn);
}
