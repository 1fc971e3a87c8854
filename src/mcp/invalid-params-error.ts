/** JSON-RPC 2.0's "Invalid params" error code, which MCP uses for a call to an unknown tool. */
const INVALID_PARAMS = -32602;

/**
 * The error a request handler throws to answer a JSON-RPC error `-32602` with `message` as it is.
 * The SDK's `McpError` would prefix its own message with `MCP error -32602: `, and the client,
 * which wraps the answer in an `McpError` of its own, would print the prefix twice.
 */
export function invalidParamsError(message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code: INVALID_PARAMS });
}
