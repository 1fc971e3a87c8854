import { importPeer } from '../core/load-peer.js';

const FEATURE = 'sluice/mcp';

/**
 * The MCP SDK's server class and protocol schemas, imported on first use: `sluice/mcp` loads
 * without the optional peer `@modelcontextprotocol/sdk`, and what needs it rejects with a
 * `PeerMissingError` (code `PEER_MISSING`) that says what to install.
 *
 * @example
 * ```ts
 * const { Server, CallToolRequestSchema } = await loadMcpSdk();
 * ```
 */
export async function loadMcpSdk() {
  const [server, types] = await Promise.all([
    importPeer(
      '@modelcontextprotocol/sdk',
      FEATURE,
      () => import('@modelcontextprotocol/sdk/server/index.js'),
    ),
    importPeer('@modelcontextprotocol/sdk', FEATURE, () => import('@modelcontextprotocol/sdk/types.js')),
  ]);
  return {
    Server: server.Server,
    CallToolRequestSchema: types.CallToolRequestSchema,
    ListToolsRequestSchema: types.ListToolsRequestSchema,
    EmptyResultSchema: types.EmptyResultSchema,
  };
}
