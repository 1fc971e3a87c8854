import type { SpanContext } from '@opentelemetry/api';
import { formatTraceparent } from './format-traceparent.js';
import type { TraceCarrier } from './trace-carrier.js';

/**
 * The {@link TraceCarrier} of a span context — `undefined` for an invalid one (no trace: the
 * API without a parent, or nothing registered), which is never propagated.
 *
 * @example
 * ```ts
 * carrierOf(span.spanContext()); // { traceparent: '00-…-…-01', tracestate: 'vendor=x' }
 * ```
 */
export function carrierOf(context: SpanContext): TraceCarrier | undefined {
  const { traceId, spanId } = context;
  if (traceId.length !== 32 || spanId.length !== 16) return undefined;
  if (traceId === '00000000000000000000000000000000' || spanId === '0000000000000000') return undefined;
  const traceparent = formatTraceparent(context);
  const tracestate = context.traceState?.serialize();
  return tracestate ? { traceparent, tracestate } : { traceparent };
}
