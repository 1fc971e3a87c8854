import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startRunSpan } from '../trace/run-span.js';
import type { TraceCarrier } from '../trace/trace-context.js';

/** What {@link tracedToolCall} reads of the SDK's request handler `extra`. */
interface CallExtraSeen {
  readonly requestId: string | number;
  readonly sessionId?: string | undefined;
  readonly signal: AbortSignal;
}

/**
 * Runs `call`, one `tools/call` a server answers, in its own span (kind server, named
 * `tools/call <tool>` as OpenTelemetry's MCP conventions name it) whose parent is the request's
 * `_meta.traceparent` (and `tracestate`) when it has one, else the active context: the tool's run
 * (the Exec tool's `exec` span) is its child, so a host's trace goes on in the server
 * (docs/mcp.md, "Tracing"). The span ends with the call: `error` with `error.type` `tool_error`
 * for a result with `isError`, the error's code for a refused call, `cancel` when the client
 * cancelled it. Without `@opentelemetry/api`, `call` just runs.
 */
export async function tracedToolCall(
  request: CallToolRequest,
  extra: CallExtraSeen,
  call: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const tool = request.params.name;
  const parent = metaCarrier(request.params._meta);
  const span = startRunSpan(
    'mcp',
    `tools/call ${tool}`,
    {
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': tool,
      'jsonrpc.request.id': String(extra.requestId),
      'mcp.session.id': extra.sessionId,
    },
    { spanKind: 'server', ...(parent === undefined ? {} : { parent }) },
  );
  try {
    const result = await span.within(call);
    if (extra.signal.aborted) span.end('cancel');
    else if (result.isError === true) span.end('error', { errorType: 'tool_error' });
    else span.end('complete');
    return result;
  } catch (error) {
    if (extra.signal.aborted) span.end('cancel');
    else {
      const code = (error as { code?: unknown } | null)?.code;
      const message = error instanceof Error ? error.message : String(error);
      span.end('error', { errorType: code === undefined ? 'Error' : String(code), message });
    }
    throw error;
  }
}

/**
 * The trace context an MCP request carries in its `params._meta` — the bare `traceparent` and
 * `tracestate` keys MCP reserves for W3C Trace Context (docs/mcp.md, "Tracing") — or `undefined`
 * when it carries none. Only strings are taken; a `traceparent` that does not parse is ignored
 * where it is used (the call's span then has the active context as its parent).
 */
export function metaCarrier(meta: unknown): TraceCarrier | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const { traceparent, tracestate } = meta as { traceparent?: unknown; tracestate?: unknown };
  if (typeof traceparent !== 'string') return undefined;
  return typeof tracestate === 'string' ? { traceparent, tracestate } : { traceparent };
}
