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
 * Serves the tools of `registry` to an MCP client over `transport` (the SDK's
 * `StdioServerTransport`, `StreamableHTTPServerTransport`, `InMemoryTransport`, …) and resolves
 * with the connected SDK `Server` once the transport started; `server.close()` ends it.
 *
 * - `tools/list` shows every tool with the JSON Schema of its zod `schema` (and `outputSchema`);
 * - `tools/call` runs it through `dispatchToolCall`. When the request carries a progress token,
 *   each chunk the tool emits goes out as a `notifications/progress` — `progress` the number of
 *   chunks so far, `message` their text, stderr lines marked `[stderr] ` — coalesced to at most
 *   one notification per `progressIntervalMs`, never more than one in flight (a slow transport
 *   gets fewer, larger ones), and the tool paused while about 1 MiB waits. Every chunk goes out
 *   before the result, and the result waits for a `ping` round trip so that no client can see
 *   it before the last notification;
 * - `notifications/cancelled` for the call, or the transport closing, aborts it: the Exec tool
 *   kills the whole process group at once;
 * - the result is a `CallToolResult`: the Exec tool's output as text within its output cap,
 *   the exec result as `structuredContent` (matching the listed `outputSchema`), and
 *   `isError: true` for a non-zero exit, a timeout, a kill, or a refused or invalid call;
 * - any tool can be run as an MCP task (the SDK's experimental Tasks): a `tools/call` with
 *   `task` is answered at once with the task, which `tasks/get`, `tasks/result`, `tasks/list` and
 *   `tasks/cancel` (which kills an Exec call's group) then reach; the tasks are kept in memory
 *   for the connection, and cancelled when it closes;
 * - with `@opentelemetry/api` and an SDK, each call is a server span (`tools/call <tool>`) whose
 *   parent is the request's `_meta.traceparent` (docs/mcp.md, "Tracing"): the host's trace goes on
 *   into the tool's run and the command it starts.
 *
 * Safe by default: the Exec tool (any tool built with `createExecTool`) is listed only when
 * `allow` names programs, and then runs only those (docs/mcp.md, "The Exec policy: safe by default"). The registry
 * is read once, here: tools registered later are not served.
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
      start: (requested, run) => tasks.start(connection, requested, run),
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
