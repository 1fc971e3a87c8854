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
 * Serves the tools of `registry` to an MCP client over `transport` (stdio, Streamable HTTP,
 * in-memory, …); resolves with the connected SDK `Server`. See docs/mcp.md.
 *
 * - `tools/list` shows each tool with the JSON Schema of its zod `schema` (and `outputSchema`);
 * - `tools/call` runs it through `dispatchToolCall`; with a progress token its chunks go out as
 *   `notifications/progress` (`progress`: chunks so far, `message`: their text, stderr marked
 *   `[stderr] `), coalesced per `progressIntervalMs`, one in flight, the tool paused while about
 *   1 MiB waits, all before the result;
 * - `notifications/cancelled` or the transport closing aborts the call (the Exec tool kills its
 *   process group);
 * - any tool can run as an MCP task (`tools/call` with `task`), kept in memory for the connection;
 * - with `@opentelemetry/api`, each call is a server span under `_meta.traceparent`.
 *
 * Safe by default: the Exec tool is listed only when `allow` names programs, and runs only those.
 * The registry is read once, here.
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
