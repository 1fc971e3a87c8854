import type { CallToolRequest } from '@modelcontextprotocol/sdk/types.js';
import { type RunSpan, startRunSpan } from '../trace/index.js';

/**
 * Starts the client span of one `tools/call` ({@link fromMcpToolCall}: kind client, named
 * `tools/call <tool>`, a child of the active context) and gives the request's `params` with that
 * span's trace context added to `_meta` as `traceparent` / `tracestate` — so the server's span of
 * the call becomes its child (docs/mcp.md, "Tracing"). Where the caller put a `traceparent` in
 * `_meta` itself, `_meta` goes unchanged (its `tracestate` belongs to that `traceparent`). Without
 * `@opentelemetry/api` or a trace, `params` go unchanged.
 */
export function startMcpClientSpan(params: CallToolRequest['params']): {
  span: RunSpan;
  params: CallToolRequest['params'];
} {
  const span = startRunSpan(
    'mcp-client',
    `tools/call ${params.name}`,
    {
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': params.name,
    },
    { spanKind: 'client' },
  );
  const carrier = span.carrier;
  // A caller's own traceparent goes with its own tracestate (or none), never with this span's.
  if (carrier === undefined || typeof params._meta?.traceparent === 'string') return { span, params };
  return { span, params: { ...params, _meta: { ...params._meta, ...carrier } } };
}
