import type { TraceCarrier } from '../trace/trace-context.js';

/**
 * The trace context an MCP request carries in its `params._meta` — the bare `traceparent` and
 * `tracestate` keys MCP reserves for W3C Trace Context (docs/mcp.md, "Tracing") — or `undefined`
 * when it carries none. Only strings are taken; a `traceparent` that does not parse is ignored
 * where it is used (the call's span then has the active context as its parent).
 *
 * @example
 * ```ts
 * metaCarrier({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
 * // { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }
 * ```
 */
export function metaCarrier(meta: unknown): TraceCarrier | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const { traceparent, tracestate } = meta as { traceparent?: unknown; tracestate?: unknown };
  if (typeof traceparent !== 'string') return undefined;
  return typeof tracestate === 'string' ? { traceparent, tracestate } : { traceparent };
}
