/**
 * A trace context in W3C Trace Context's text form, as it travels between processes: the
 * `traceparent` (`00-<trace id>-<span id>-<flags>`) and the vendor `tracestate`, passed through
 * unchanged. The child's environment carries it as `TRACEPARENT`/`TRACESTATE` (docs/tracing.md).
 *
 * @example
 * ```ts
 * const carrier: TraceCarrier = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' };
 * ```
 */
export interface TraceCarrier {
  readonly traceparent: string;
  readonly tracestate?: string;
}
