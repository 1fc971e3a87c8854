import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { loadMcpSdk } from './load-mcp-sdk.js';

/**
 * Resolves once the client has handled every message sent before: a `ping` round trip on the
 * call's own stream. A client answers the ping only after it dispatched what came before it, so
 * the result sent next cannot overtake the last progress notification — which the SDK's client
 * would drop if both arrived in one read (it dispatches notifications a microtask late but
 * responses at once, and forgets the progress token with the response; see docs/mcp.md).
 * A client that does not answer within `timeoutMs`, an error or a cancel end the wait too: the
 * result is sent anyway.
 *
 * @example
 * ```ts
 * await pump.flush();
 * if (pump.chunks() > 0) await awaitClientCaughtUp(extra, 10_000);
 * return result;
 * ```
 */
export async function awaitClientCaughtUp(
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  timeoutMs: number,
): Promise<void> {
  const { EmptyResultSchema } = await loadMcpSdk();
  try {
    await extra.sendRequest({ method: 'ping' }, EmptyResultSchema, { timeout: timeoutMs });
  } catch {
    // No answer (an old client, a timeout, the call cancelled): the result goes out regardless.
  }
}
