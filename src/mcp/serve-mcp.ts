import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { optionError } from '../core/option-error.js';
import type { ToolRegistry } from '../kernel/index.js';
import { MemoryRunStore } from '../runs/memory-run-store.js';
import { loadMcpSdk } from './load-mcp-sdk.js';
import { mcpServerFactory } from './mcp-server-factory.js';
import { McpTasks } from './mcp-tasks.js';
import type { ServeMcpOptions } from './serve-mcp-options.js';

/**
 * Serves the tools of `registry` to an MCP client over `transport`; resolves with the connected
 * SDK `Server` (docs/mcp.md). A call's chunks go out as `notifications/progress` (coalesced per
 * `progressIntervalMs`, the tool paused while about 1 MiB waits), all before the result; a cancel
 * or the transport closing aborts it. Any tool can run as an MCP task (in memory). Safe by
 * default: the Exec tool is listed only when `allow` names programs, and runs only those.
 *
 * @example
 * ```ts
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 * import { createToolRegistry, registerBuiltinTools } from 'sluice/kernel';
 * import { serveMcp } from 'sluice/mcp';
 * const registry = registerBuiltinTools(createToolRegistry());
 * await serveMcp(registry, new StdioServerTransport(), { allow: ['npm', 'git'] });
 * ```
 */
export async function serveMcp(
  registry: ToolRegistry,
  transport: Transport,
  options: ServeMcpOptions = {},
): Promise<Server> {
  if (typeof transport?.start !== 'function' || typeof transport.send !== 'function') {
    throw optionError('transport', 'an MCP Transport', transport, 'argument');
  }
  const makeServer = mcpServerFactory(registry, options, { catchUp: true });
  const sdk = await loadMcpSdk();
  // The connection's MCP Tasks, kept in memory for it (docs/mcp.md, "Long calls: MCP Tasks").
  const store = new MemoryRunStore();
  const tasks = new McpTasks(store);
  const connection = randomUUID();
  const server = makeServer(sdk, {
    tasks: {
      store: tasks.forSession(connection),
      start: (requested, call) => tasks.start(connection, requested, call),
    },
  });
  // Chained before connect, which chains its own after: the tasks are cancelled (their process
  // groups killed) before the server reports the close.
  const onclose = transport.onclose;
  transport.onclose = () => {
    onclose?.();
    void tasks.close().then(() => store.close());
  };
  await server.connect(transport);
  return server;
}
