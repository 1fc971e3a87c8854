import { carrierOf } from './carrier-of.js';
import { traceApi } from './trace-api.js';
import type { TraceCarrier } from './trace-carrier.js';

/**
 * The {@link TraceCarrier} of the active span (to send along a request: an MCP call's
 * `_meta.traceparent`), or `undefined` when there is none or `@opentelemetry/api` is absent.
 *
 * @example
 * ```ts
 * const carrier = activeCarrier();
 * const meta = carrier === undefined ? {} : { traceparent: carrier.traceparent };
 * ```
 */
export function activeCarrier(): TraceCarrier | undefined {
  const span = traceApi()?.trace.getActiveSpan();
  return span === undefined ? undefined : carrierOf(span.spanContext());
}
