import type { Context } from '@opentelemetry/api';
import { parseTraceparent } from './parse-traceparent.js';
import type { TraceApi } from './trace-api.js';
import type { TraceCarrier } from './trace-carrier.js';

/**
 * `base` with the remote span of `carrier` as its parent span (its `tracestate` kept), or `base`
 * itself when the `traceparent` does not parse.
 *
 * @example
 * ```ts
 * const parent = remoteContext(api, { traceparent: process.env.TRACEPARENT ?? '' }, api.context.active());
 * ```
 */
export function remoteContext(api: TraceApi, carrier: TraceCarrier, base: Context): Context {
  const parsed = parseTraceparent(carrier.traceparent);
  if (parsed === undefined) return base;
  const traceState =
    carrier.tracestate === undefined || carrier.tracestate === ''
      ? undefined
      : api.createTraceState(carrier.tracestate);
  return api.trace.setSpanContext(base, { ...parsed, isRemote: true, ...(traceState ? { traceState } : {}) });
}
