// Tracing and metrics of runs on `@opentelemetry/api`, an optional peer (docs/tracing.md).
// Internal: sources, tools and the CLI build on it; no entry point exports it.
export {
  errorTypeOf,
  NOOP_RUN_SPAN,
  type RunSpan,
  type RunSpanOptions,
  type SpanEndDetails,
  type SpanEndReason,
  startRunSpan,
  type TraceAttributes,
  type TraceAttributeValue,
} from './run-span.js';
export { loadTraceApi, type TraceApi, traceApi } from './trace-api.js';
export {
  activeCarrier,
  formatTraceparent,
  type ParsedTraceparent,
  parseTraceparent,
  type TraceCarrier,
  withRemoteParent,
} from './trace-context.js';
