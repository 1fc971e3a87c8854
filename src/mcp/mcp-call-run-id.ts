import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * The run that keeps the event stream of request `requestId` of session `sessionId`
 * (`mcp:<session>:<id as base64url JSON>`): every instance derives the same id, so a cancel for
 * the request reaches its run from any of them. A client may not reuse a request id within a
 * session (the MCP specification), so the id names one stream.
 *
 * @example
 * ```ts
 * callRunId('5f0c…', 7); // 'mcp:5f0c…:Nw'
 * ```
 */
export function callRunId(sessionId: string, requestId: RequestId): string {
  return `mcp:${sessionId}:${Buffer.from(JSON.stringify(requestId)).toString('base64url')}`;
}

/**
 * The session and request of a run named by {@link callRunId}, or `undefined` for any other id.
 *
 * @example
 * ```ts
 * parseCallRunId('mcp:5f0c…:Nw'); // { sessionId: '5f0c…', requestId: 7 }
 * ```
 */
export function parseCallRunId(runId: string): { sessionId: string; requestId: RequestId } | undefined {
  const match = /^mcp:([^:]+):([A-Za-z0-9_-]+)$/.exec(runId);
  if (match === null) return undefined;
  try {
    const requestId: unknown = JSON.parse(Buffer.from(match[2] as string, 'base64url').toString('utf8'));
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return undefined;
    return { sessionId: match[1] as string, requestId };
  } catch {
    return undefined;
  }
}
