import type {
  CreateTaskOptions,
  TaskStore,
} from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolRequest,
  CallToolResult,
  CreateTaskResult,
  ServerNotification,
  ServerRequest,
  Task,
} from '@modelcontextprotocol/sdk/types.js';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import packageJson from '../../package.json' with { type: 'json' };
import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
import { optionError } from '../core/option-error.js';
import { readInteger } from '../core/read-integer.js';
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
import { type ExecPolicy, readExecPolicy } from './exec-policy.js';
import type { McpSdk } from './load-mcp-sdk.js';
import { loadMcpSdk } from './load-mcp-sdk.js';
import { createProgressPump } from './progress-pump.js';
import { restrictExecTool } from './restrict-exec-tool.js';
import type { ServeMcpOptions } from './serve-mcp-options.js';
import { toCallToolResult } from './to-call-tool-result.js';
import { toMcpTool } from './to-mcp-tool.js';
import { tracedToolCall } from './traced-tool-call.js';

/** Text waiting for a slow client past which a streaming tool is paused (about 1 MiB). */
const HIGH_WATER_CHARS = 1 << 20;
/** How long the result waits for the client's answer to the ping that follows the last progress. */
const CATCH_UP_TIMEOUT_MS = 10_000;

/** The options of {@link ServeMcpOptions}, by name. */
export const SERVE_MCP_OPTIONS = [
  'allow',
  'cwd',
  'timeoutS',
  'allowEnv',
  'confineCwd',
  'progressIntervalMs',
  'serverInfo',
  'pid',
  'scheduler',
];

/**
 * Checks `registry` and the options of {@link serveMcp} once; returns a maker of SDK `Server`s of
 * those tools (one per stdio connection or HTTP request). With `catchUp`, a streamed result waits
 * for a `ping` round trip first (docs/mcp.md).
 */
export function mcpServerFactory(
  registry: ToolRegistry,
  options: ServeMcpOptions,
  { catchUp }: { readonly catchUp: boolean },
): (sdk: McpSdk, scope: McpServerScope) => Server {
  if (typeof registry?.get !== 'function' || typeof registry.names !== 'function') {
    throw optionError('registry', 'a ToolRegistry (createToolRegistry)', registry, 'argument');
  }
  if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
  rejectUnknownOptions(options, SERVE_MCP_OPTIONS);
  const policy = readExecPolicy(options);
  const {
    serverInfo = { name: 'sluice', version: packageJson.version },
    pid = process.pid,
    scheduler = asyncScheduler,
  } = options;
  const progressIntervalMs = readInteger(options, 'progressIntervalMs', 20, { max: MAX_DELAY_MS });
  if (typeof serverInfo?.name !== 'string' || typeof serverInfo.version !== 'string') {
    throw optionError('serverInfo', 'an object with a string `name` and `version`', serverInfo);
  }
  if (!Number.isInteger(pid)) throw optionError('pid', 'an integer', pid);
  if (typeof scheduler?.now !== 'function' || typeof scheduler.schedule !== 'function') {
    throw optionError('scheduler', 'a SchedulerLike', scheduler);
  }

  const { served, hidden } = exposeTools(registry, policy);
  // Every tool may be run as a task (a task-augmented tools/call).
  const listing = [...served.values()]
    .map(toMcpTool)
    .map((tool) => ({ ...tool, execution: { taskSupport: 'optional' as const } }));
  const dispatchRegistry = createToolRegistry();
  for (const tool of served.values()) dispatchRegistry.register(tool);
  const config = { served, hidden, dispatchRegistry, progressIntervalMs, pid, scheduler, catchUp };

  return (sdk, { sessionId, tasks }) => {
    const server = new sdk.Server(serverInfo, {
      capabilities: { tools: {}, tasks: tasks.listable === false ? NO_LIST : TASKS_CAPABILITY },
      taskStore: tasks.store,
    });
    server.setRequestHandler(sdk.ListToolsRequestSchema, () => ({ tools: listing }));
    server.setRequestHandler(sdk.CallToolRequestSchema, (request, sdkExtra) => {
      const extra = { ...sdkExtra, sessionId: sdkExtra.sessionId ?? sessionId };
      return request.params.task !== undefined && config.served.has(request.params.name)
        ? startTask(config, request, extra, tasks)
        : tracedToolCall(request, extra, () => callTool(config, request, extra));
    });
    return server;
  };
}

/** What a server offers of MCP Tasks: `tools/call` as a task, `tasks/list`, `tasks/cancel`. */
const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
/** The same, where the run store cannot list its runs (no `RunStore.runIds`): no `tasks/list`. */
const NO_LIST = { cancel: {}, requests: TASKS_CAPABILITY.requests };

/** What one server made by {@link mcpServerFactory} serves besides the tools. */
export interface McpServerScope {
  /** The MCP session served, for the calls' spans (`serveMcpHttp`'s sessions are its own). */
  readonly sessionId?: string | undefined;
  /** Where its tasks are kept and how one starts. */
  readonly tasks: McpRequestTasks;
}

/** The MCP Tasks of one request's server: the SDK `TaskStore` of its session, and how a task starts. */
export interface McpRequestTasks {
  readonly store: TaskStore;
  /** Creates a task and calls `call` for it in the background; resolves with the `Task`. */
  start(requested: CreateTaskOptions, call: (signal: AbortSignal) => Promise<CallToolResult>): Promise<Task>;
  /** `false` where the store cannot list tasks: `tasks/list` is then not declared. */
  readonly listable?: boolean;
}

/** A task-augmented `tools/call`: answered at once with the task; its span lasts as the task does. */
async function startTask(
  config: CallConfig,
  request: CallToolRequest,
  extra: CallExtra,
  tasks: McpRequestTasks,
): Promise<CreateTaskResult> {
  const task = await tasks.start(request.params.task ?? {}, (signal) => {
    const taskExtra = { ...extra, signal, _meta: {} };
    return tracedToolCall(request, taskExtra, () => callTool(config, request, taskExtra));
  });
  return { task };
}

type CallConfig = {
  readonly served: ReadonlyMap<string, ToolDefinition>;
  readonly hidden: ReadonlySet<string>;
  readonly dispatchRegistry: ToolRegistry;
  readonly progressIntervalMs: number;
  readonly pid: number;
  readonly scheduler: SchedulerLike;
  readonly catchUp: boolean;
};

type CallExtra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1];

/** One `tools/call`: progress through the pump, the tool through `dispatchToolCall`, then the result. */
async function callTool(
  config: CallConfig,
  request: CallToolRequest,
  extra: CallExtra,
): Promise<CallToolResult> {
  const { served, hidden, dispatchRegistry, progressIntervalMs, pid, scheduler } = config;
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
    if (config.catchUp && pump !== undefined && pump.chunks() > 0 && !extra.signal.aborted) {
      await awaitClientCaughtUp(extra, CATCH_UP_TIMEOUT_MS);
    }
    return toCallToolResult(result, { tool, args, streamedChunks: pump?.chunks() });
  } finally {
    extra.signal.removeEventListener('abort', stop);
    pump?.close();
  }
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

/**
 * Resolves after a `ping` round trip (or `timeoutMs`, an error, a cancel), so the result cannot
 * overtake the last progress notification, which the SDK's client would drop (docs/mcp.md).
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

/** JSON-RPC 2.0's "Invalid params" error code, which MCP uses for a call to an unknown tool. */
const INVALID_PARAMS = -32602;

/**
 * A JSON-RPC error `-32602` with `message` as it is: the SDK's `McpError` would prefix it with
 * `MCP error -32602: `, which the client, wrapping it again, would print twice.
 */
export function invalidParamsError(message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code: INVALID_PARAMS });
}
