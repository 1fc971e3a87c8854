import { importPeer } from '../core/load-peer.js';

const FEATURE = 'sluice/mcp';

/**
 * The MCP SDK's server class, its Streamable HTTP transport and protocol schemas, imported on first use: `sluice/mcp` loads
 * without the optional peer `@modelcontextprotocol/sdk`, and what needs it rejects with a
 * `PeerMissingError` (code `PEER_MISSING`) that says what to install.
 */
export async function loadMcpSdk() {
  const [server, http, types] = await Promise.all([
    importPeer(
      '@modelcontextprotocol/sdk',
      FEATURE,
      () => import('@modelcontextprotocol/sdk/server/index.js'),
    ),
    importPeer(
      '@modelcontextprotocol/sdk',
      FEATURE,
      () => import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    ),
    importPeer('@modelcontextprotocol/sdk', FEATURE, () => import('@modelcontextprotocol/sdk/types.js')),
  ]);
  return {
    Server: server.Server,
    StreamableHTTPServerTransport: http.StreamableHTTPServerTransport,
    CallToolRequestSchema: types.CallToolRequestSchema,
    ListToolsRequestSchema: types.ListToolsRequestSchema,
    EmptyResultSchema: types.EmptyResultSchema,
    ErrorCode: types.ErrorCode,
    isInitializeRequest: types.isInitializeRequest,
  };
}

/** What {@link loadMcpSdk} resolves with. */
export type McpSdk = Awaited<ReturnType<typeof loadMcpSdk>>;
