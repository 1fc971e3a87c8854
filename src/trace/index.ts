// Tracing and metrics of runs on `@opentelemetry/api`, an optional peer (docs/tracing.md).
// Internal: sources, tools and the CLI build on it; no entry point exports it.
export { activeCarrier } from './active-carrier.js';
export { carrierOf } from './carrier-of.js';
export { formatTraceparent } from './format-traceparent.js';
export { NOOP_RUN_SPAN } from './noop-run-span.js';
export { type ParsedTraceparent, parseTraceparent } from './parse-traceparent.js';
export type {
  RunEndDetails,
  RunEndReason,
  RunSpan,
  TraceAttributes,
  TraceAttributeValue,
} from './run-span.js';
export { type RunSpanOptions, startRunSpan } from './start-run-span.js';
export { loadTraceApi, type TraceApi, traceApi } from './trace-api.js';
export type { TraceCarrier } from './trace-carrier.js';
export { withRemoteParent } from './with-remote-parent.js';
