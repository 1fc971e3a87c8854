/**
 * A trace context in W3C Trace Context's text form, as it travels between processes: the
 * `traceparent` (`00-<trace id>-<span id>-<flags>`) and the vendor `tracestate`, passed through
 * unchanged. The child's environment carries it as `TRACEPARENT`/`TRACESTATE` (docs/tracing.md).
 */
export interface TraceCarrier {
  readonly traceparent: string;
  readonly tracestate?: string;
}
