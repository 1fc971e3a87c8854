import type { TraceCarrier } from '../trace/trace-context.js';

/**
 * The trace context the `sluice` command was started in: `TRACEPARENT` and `TRACESTATE` of its
 * environment (OpenTelemetry's environment-variable carrier), or `undefined` without a
 * `TRACEPARENT`. Every run the command starts is then in that trace (docs/tracing.md).
 *
 * @example
 * ```ts
 * envTraceCarrier({ TRACEPARENT: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
 * // { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }
 * ```
 */
export function envTraceCarrier(env: NodeJS.ProcessEnv): TraceCarrier | undefined {
  const { TRACEPARENT: traceparent, TRACESTATE: tracestate } = env;
  if (traceparent === undefined || traceparent === '') return undefined;
  return tracestate === undefined || tracestate === '' ? { traceparent } : { traceparent, tracestate };
}
