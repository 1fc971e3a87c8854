import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startRunSpan } from '../trace/run-span.js';
import { metaCarrier } from './meta-carrier.js';

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
 *
 * @example
 * ```ts
 * server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
 *   tracedToolCall(request, extra, () => callTool(config, request, extra)));
 * ```
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
