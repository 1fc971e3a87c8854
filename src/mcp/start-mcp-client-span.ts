import type { CallToolRequest } from '@modelcontextprotocol/sdk/types.js';
import { type RunSpan, startRunSpan } from '../trace/index.js';

/**
 * Starts the client span of one `tools/call` ({@link fromMcpToolCall}: kind client, named
 * `tools/call <tool>`, a child of the active context) and gives the request's `params` with that
 * span's trace context added to `_meta` as `traceparent` / `tracestate` — so the server's span of
 * the call becomes its child (docs/mcp.md, "Tracing"). A `traceparent` the caller put in `_meta`
 * itself is kept. Without `@opentelemetry/api` or a trace, `params` go unchanged.
 *
 * @example
 * ```ts
 * const { span, params: sent } = startMcpClientSpan(params);
 * await client.callTool(sent);
 * span.end('complete');
 * ```
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
  if (carrier === undefined) return { span, params };
  return { span, params: { ...params, _meta: { ...carrier, ...params._meta } } };
}
