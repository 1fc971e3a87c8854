import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import packageJson from '../../package.json' with { type: 'json' };
import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
import { optionError } from '../core/option-error.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import {
  createToolRegistry,
  dispatchToolCall,
  type ExecToolArgs,
  type ExecToolResult,
  execToolArgsSchema,
  type ToolDefinition,
  type ToolRegistry,
} from '../kernel/index.js';
import { awaitClientCaughtUp } from './await-client-caught-up.js';
import { type ExecPolicy, readExecPolicy } from './exec-policy.js';
import { invalidParamsError } from './invalid-params-error.js';
import { loadMcpSdk } from './load-mcp-sdk.js';
import { createProgressPump } from './progress-pump.js';
import { restrictExecTool } from './restrict-exec-tool.js';
import { toCallToolResult } from './to-call-tool-result.js';
import { toMcpTool } from './to-mcp-tool.js';

/** Text waiting for a slow client past which a streaming tool is paused (about 1 MiB). */
const HIGH_WATER_CHARS = 1 << 20;
/** How long the result waits for the client's answer to the ping that follows the last progress. */
const CATCH_UP_TIMEOUT_MS = 10_000;

/**
 * Options of {@link serveMcp}, checked before the server connects.
 *
 * @example
 * ```ts
 * const options: ServeMcpOptions = { allow: ['npm', 'git'], cwd: '/srv/repo', timeoutS: 600 };
 * ```
 */
export interface ServeMcpOptions {
  /**
   * Programs the Exec tool may start: `argv[0]` must be one of these, exactly (`npm`,
   * `/usr/bin/git`, `./build.sh`). Default none — the Exec tool is then not listed at all.
   */
  readonly allow?: readonly string[];
  /** Working directory of Exec calls; a call's relative `cwd` is resolved against it. Default `process.cwd()`. */
  readonly cwd?: string;
  /** Default and upper bound of an Exec call's `timeout_s`, in (0, 600]. Default `60`. */
  readonly timeoutS?: number;
  /** At most one progress notification per call per this many ms (0 – 2147483647). Default `20`. */
  readonly progressIntervalMs?: number;
  /** The server's name and version in the MCP handshake. Default `{ name: 'sluice', version: <sluice's version> }`. */
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /** `ctx.pid` handed to tools. Default `process.pid`. */
  readonly pid?: number;
  /** The clock of the progress coalescing. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

const KNOWN = ['allow', 'cwd', 'timeoutS', 'progressIntervalMs', 'serverInfo', 'pid', 'scheduler'];

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
 *   `isError: true` for a non-zero exit, a timeout, a kill, or a refused or invalid call.
 *
 * Safe by default: the Exec tool (any tool built with `createExecTool`) is listed only when
 * `allow` names programs, and then runs only those (see the README's MCP section). The registry
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
  if (typeof registry?.get !== 'function' || typeof registry.names !== 'function') {
    throw optionError('registry', 'a ToolRegistry (createToolRegistry)', registry, 'argument');
  }
  if (typeof transport?.start !== 'function' || typeof transport.send !== 'function') {
    throw optionError('transport', 'an MCP Transport', transport, 'argument');
  }
  if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
  rejectUnknownOptions(options, KNOWN);
  const policy = readExecPolicy(options);
  const {
    progressIntervalMs = 20,
    serverInfo = { name: 'sluice', version: packageJson.version },
    pid = process.pid,
    scheduler = asyncScheduler,
  } = options;
  if (!Number.isInteger(progressIntervalMs) || progressIntervalMs < 0 || progressIntervalMs > MAX_DELAY_MS) {
    throw optionError('progressIntervalMs', `an integer from 0 to ${MAX_DELAY_MS}`, progressIntervalMs);
  }
  if (typeof serverInfo?.name !== 'string' || typeof serverInfo.version !== 'string') {
    throw optionError('serverInfo', 'an object with a string `name` and `version`', serverInfo);
  }
  if (!Number.isInteger(pid)) throw optionError('pid', 'an integer', pid);
  if (typeof scheduler?.now !== 'function' || typeof scheduler.schedule !== 'function') {
    throw optionError('scheduler', 'a SchedulerLike', scheduler);
  }

  const { served, hidden } = exposeTools(registry, policy);
  const listing = [...served.values()].map(toMcpTool);
  const dispatchRegistry = createToolRegistry();
  for (const tool of served.values()) dispatchRegistry.register(tool);

  const { Server, CallToolRequestSchema, ListToolsRequestSchema } = await loadMcpSdk();
  const server = new Server(serverInfo, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = request.params;
    const tool = served.get(name);
    if (tool === undefined) {
      const message = hidden.has(name)
        ? `Tool \`${name}\` is off: this server allows no program (start it with \`--allow <program>\`, or give serveMcp an \`allow\` list)`
        : `Unknown tool \`${name}\` (tools: ${[...served.keys()].join(', ') || 'none'})`;
      throw invalidParamsError(message);
    }
    const token = extra._meta?.progressToken;
    const pump =
      token === undefined
        ? undefined
        : createProgressPump({
            send: (update) =>
              extra.sendNotification({
                method: 'notifications/progress',
                params: { progressToken: token, ...update },
              }),
            intervalMs: progressIntervalMs,
            highWaterChars: HIGH_WATER_CHARS,
            scheduler,
          });
    const stop = () => pump?.close();
    extra.signal.addEventListener('abort', stop, { once: true });
    try {
      const result = await dispatchToolCall({
        msg: { op: 'tool_call', id: String(extra.requestId), name, args },
        pid,
        registry: dispatchRegistry,
        onChunk: pump?.push,
        signal: extra.signal,
        demand: pump?.demand,
      });
      await pump?.flush();
      if (pump !== undefined && pump.chunks() > 0 && !extra.signal.aborted) {
        await awaitClientCaughtUp(extra, CATCH_UP_TIMEOUT_MS);
      }
      return toCallToolResult(result, { tool, args, streamedChunks: pump?.chunks() });
    } finally {
      extra.signal.removeEventListener('abort', stop);
      pump?.close();
    }
  });
  await server.connect(transport);
  return server;
}

/** The tools to serve, by name, with the Exec policy applied; `hidden` holds Exec tools left out. */
function exposeTools(registry: ToolRegistry, policy: ExecPolicy) {
  const served = new Map<string, ToolDefinition>();
  const hidden = new Set<string>();
  for (const name of registry.names()) {
    const tool = registry.get(name);
    if (tool === undefined) continue;
    if (tool.schema !== execToolArgsSchema) served.set(name, tool);
    else if (policy.allow.length === 0) hidden.add(name);
    else served.set(name, restrictExecTool(tool as ToolDefinition<ExecToolArgs, ExecToolResult>, policy));
  }
  return { served, hidden };
}
