import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { asyncScheduler } from 'rxjs';
import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
import { optionError } from '../core/option-error.js';
import { readInteger, readPort } from '../core/read-integer.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import type { ToolRegistry } from '../kernel/index.js';
import { MemoryRunStore } from '../runs/memory-run-store.js';
import type { RunStore } from '../runs/run-store.js';
import { loadMcpSdk } from './load-mcp-sdk.js';
import { mcpHttpGuard, readJsonBody } from './mcp-http-guard.js';
import { mcpServerFactory, SERVE_MCP_OPTIONS } from './mcp-server-factory.js';
import { McpSessions } from './mcp-sessions.js';
import { callRunId, parseCallRunId, parseEventId } from './mcp-stream.js';
import { McpTasks } from './mcp-tasks.js';
import { resumeMcpStream } from './resume-mcp-stream.js';
import type { ServeMcpOptions } from './serve-mcp-options.js';
import { type McpPostContext, serveMcpPost } from './serve-mcp-post.js';
/** Options of {@link serveMcpHttp}: those of `serveMcp`, and the HTTP ones. */
export interface ServeMcpHttpOptions extends Omit<ServeMcpOptions, 'confineCwd'> {
  /** The port the server listens on (checked in `Host`). */
  readonly port: number;
  /** The names a request's `Host` may carry (see `sluice/web`'s `createWebGuard`). Default `127.0.0.1`, `localhost`, `[::1]`. */
  readonly hosts?: readonly string[];
  /** The bearer token (16 characters or more). Default: 24 random ones; `null`: none (loopback only). */
  readonly token?: string | null;
  /** Where sessions and the calls' event streams live. Default a new `MemoryRunStore` (one instance). */
  readonly store?: RunStore;
  /** The MCP endpoint's path. Default `/mcp`. */
  readonly path?: string;
  /** The `retry:` a client waits before it reconnects a cut stream, in ms. Default `500`. */
  readonly retryMs?: number;
  /** A session idle this long on its owning instance ends as a `DELETE` ends it, in ms. Default 30 minutes. */
  readonly sessionIdleMs?: number;
}

/** The request handler {@link serveMcpHttp} returns. */
export interface McpHttpHandler {
  /** Answers one request (any path: other paths get `404`). */
  readonly handle: (req: IncomingMessage, res: ServerResponse) => void;
  /** The bearer token clients must send, if any. */
  readonly token: string | undefined;
  /** The run store of sessions and streams. */
  readonly store: RunStore;
  /** Cancels the calls running here and ends this instance's sessions. */
  close(): Promise<void>;
}

/**
 * Serves the tools of `registry` over MCP's Streamable HTTP transport in a `node:http` server,
 * safe by default and resumable from a run store (docs/mcp.md):
 *
 * - **Access.** `Host` must name the server, an `Origin` must be its own (`403`), every request
 *   carries `Authorization: Bearer <token>` (`401`); an Exec call's `env` may set only `allowEnv`
 *   and its `cwd` stays under `cwd`.
 * - **Sessions** live in the store: any instance sharing it answers any request of a session.
 * - **Resumable.** Each request's event stream is a run of the store: a client reconnecting with
 *   `Last-Event-ID` gets every message after it exactly once, from whichever instance it reaches.
 * - **Cancel from anywhere.** `notifications/cancelled` (or a `DELETE` of the session) on any
 *   instance reaches the call through the store: an Exec call's process group is killed.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createToolRegistry, registerBuiltinTools } from 'sluice/kernel';
 * import { serveMcpHttp } from 'sluice/mcp';
 * const mcp = serveMcpHttp(registerBuiltinTools(createToolRegistry()), { allow: ['git'], port: 8080 });
 * createServer(mcp.handle).listen(8080, '127.0.0.1');
 * console.error(`MCP at http://127.0.0.1:8080/mcp, token ${mcp.token}`);
 * ```
 */
export function serveMcpHttp(registry: ToolRegistry, options: ServeMcpHttpOptions): McpHttpHandler {
  if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
  const http = ['port', 'hosts', 'token', 'store', 'path', 'retryMs', 'sessionIdleMs'];
  rejectUnknownOptions(options, [...SERVE_MCP_OPTIONS.filter((name) => name !== 'confineCwd'), ...http]);
  const { hosts = ['127.0.0.1', 'localhost', '[::1]'], path = '/mcp' } = options;
  const port = readPort(options);
  const token = options.token === undefined ? randomBytes(18).toString('base64url') : options.token;
  if (token !== null && (typeof token !== 'string' || token.length < 16)) {
    throw optionError('token', 'a string of at least 16 characters, or null', token);
  }
  if (typeof path !== 'string' || !path.startsWith('/'))
    throw optionError('path', 'a path starting with /', path);
  const retryMs = readInteger(options, 'retryMs', 500);
  const sessionIdleMs = readInteger(options, 'sessionIdleMs', 1_800_000, { min: 1, max: MAX_DELAY_MS });
  const store = options.store ?? new MemoryRunStore();
  if (typeof store?.openWriter !== 'function') throw optionError('store', 'a RunStore', store);
  const serverOptions = Object.fromEntries(
    Object.entries(options).filter(([name]) => SERVE_MCP_OPTIONS.includes(name)),
  ) as ServeMcpOptions;
  const makeServer = mcpServerFactory(
    registry,
    { allowEnv: [], ...serverOptions, confineCwd: true },
    { catchUp: false },
  );
  const check = mcpHttpGuard({ token: token ?? undefined, hosts, port });
  // The scheduler was checked by mcpServerFactory.
  const sessions = new McpSessions(store, {
    idleMs: sessionIdleMs,
    scheduler: options.scheduler ?? asyncScheduler,
  });
  // Loaded now, awaited by each request: where the optional peer is missing, a request is answered
  // with the PeerMissingError's message (500) rather than an unhandled rejection here.
  const sdk = loadMcpSdk();
  sdk.catch(() => {});
  const tasks = new McpTasks(store, sessions, options.scheduler ?? asyncScheduler);
  const context: McpPostContext = { store, sessions, sdk, makeServer, tasks, calls: new Map(), retryMs };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const refusal = check(req);
    if (refusal !== undefined) return refuse(res, refusal.status, refusal.message, refusal.headers);
    if ((req.url ?? '').split('?')[0] !== path) return refuse(res, 404, `Not found: MCP is at ${path}`);
    route(context, req, res).catch((error: unknown) => {
      if (!res.headersSent) refuse(res, 500, `Internal error: ${(error as Error).message}`);
      else res.destroy();
    });
  };
  return {
    handle,
    token: token ?? undefined,
    store,
    close: async () => {
      const running = [...context.calls.values()];
      for (const call of running) call.stop('server closed');
      const tasksEnded = tasks.close();
      sessions.close();
      await Promise.all([...running.map((call) => call.done), tasksEnded]);
      if (options.store === undefined) await store.close();
    },
  };
}

/** Dispatches an admitted request to `/mcp` by method. */
async function route(context: McpPostContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method === 'POST') return post(context, req, res);
  if (req.method !== 'GET' && req.method !== 'DELETE') {
    return refuse(res, 405, 'Method not allowed', { allow: 'GET, POST, DELETE' });
  }
  const sessionId = await liveSession(context, req, res);
  if (sessionId === undefined) return;
  if (req.method === 'DELETE') {
    await context.sessions.end(sessionId, 'session deleted');
    res.writeHead(200).end();
    return;
  }
  const lastEventId = req.headers['last-event-id'];
  if (typeof lastEventId !== 'string') {
    // This server sends nothing outside a request's own stream: no standalone stream to open.
    return refuse(res, 405, 'Method not allowed: this server has no standalone event stream', {
      allow: 'POST, DELETE',
    });
  }
  if (!String(req.headers.accept).includes('text/event-stream')) {
    return refuse(res, 406, 'Not Acceptable: Client must accept text/event-stream');
  }
  const event = parseEventId(lastEventId);
  const call = event === undefined ? undefined : parseCallRunId(event.runId);
  if (event === undefined || call === undefined || call.sessionId !== sessionId) {
    return refuse(res, 404, 'Not found: Last-Event-ID names no stream of this session');
  }
  const info = await context.store.info(event.runId);
  if (info === undefined) return refuse(res, 404, 'Not found: the stream is no longer kept');
  if (event.sequence >= info.next)
    return refuse(res, 400, 'Bad Request: Last-Event-ID is ahead of the stream');
  if (info.state === 'ended' && event.sequence === info.next - 1) {
    // The client has the stream's last event (an error response, which the SDK's client does not
    // count as the end): nothing more will come, and 204 tells it to stop reconnecting.
    res.writeHead(204, { 'mcp-session-id': sessionId }).end();
    return;
  }
  resumeMcpStream(context.store, res, {
    runId: event.runId,
    after: event.sequence,
    requestId: call.requestId,
    sessionId,
    // A call running here follows this reader's pace too (see StreamReaders).
    readers: context.calls.get(event.runId)?.readers,
  });
}

/** A `POST`: opens a session for `initialize`, forwards cancels through the store, serves requests. */
async function post(context: McpPostContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJsonBody(req);
  if (body.error !== undefined)
    return refuse(res, body.error.status, body.error.message, undefined, body.error.code);
  const messages = (Array.isArray(body.value) ? body.value : [body.value]) as Record<string, unknown>[];
  if (messages.some((message) => typeof message !== 'object' || message === null)) {
    return refuse(res, 400, 'Parse error: Invalid JSON-RPC message', undefined, -32700);
  }
  let sessionId: string | undefined;
  const { isInitializeRequest } = await context.sdk;
  if (messages.some((message) => isInitializeRequest(message))) {
    if (messages.length > 1) {
      return refuse(
        res,
        400,
        'Invalid Request: Only one initialization request is allowed',
        undefined,
        -32600,
      );
    }
    sessionId = randomUUID();
    await context.sessions.open(sessionId);
    holdWhileOpen(context.sessions, sessionId, res);
  } else {
    // Cancels go out at once, beside the session check (one store round trip less on the way
    // to the process group): a cancel naming no live run of a live session changes nothing.
    const claimed = req.headers['mcp-session-id'];
    const cancels =
      typeof claimed === 'string' && SESSION_ID.test(claimed)
        ? forwardCancels(context.store, claimed, messages)
        : Promise.resolve();
    sessionId = await liveSession(context, req, res);
    await cancels;
    if (sessionId === undefined) return;
  }
  const requests = messages.filter(
    (message) => typeof message.method === 'string' && message.id !== undefined,
  ) as unknown as JSONRPCRequest[];
  if (requests.length === 0) {
    res.writeHead(202, { 'mcp-session-id': sessionId }).end();
    return;
  }
  await serveMcpPost(context, req, res, { sessionId, body: body.value, requests });
}

/** The request's live session id; else answers `400` (no `Mcp-Session-Id`) or `404` (unknown or ended). */
async function liveSession(
  context: McpPostContext,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<string | undefined> {
  const sessionId = req.headers['mcp-session-id'];
  if (typeof sessionId !== 'string' || sessionId === '') {
    refuse(res, 400, 'Bad Request: Mcp-Session-Id header is required');
    return undefined;
  }
  if (!SESSION_ID.test(sessionId) || !(await context.sessions.alive(sessionId))) {
    refuse(res, 404, 'Session not found', undefined, -32001);
    return undefined;
  }
  holdWhileOpen(context.sessions, sessionId, res);
  return sessionId;
}

/** What a session id looks like (ours are UUIDs). */
const SESSION_ID = /^[\w-]{1,100}$/;

/**
 * Each `notifications/cancelled` of `messages` as a cancel of its call's run in the store, which
 * reaches the instance running the call (docs/mcp.md, "Cancel from anywhere").
 */
async function forwardCancels(
  store: RunStore,
  sessionId: string,
  messages: readonly Record<string, unknown>[],
): Promise<void> {
  const cancels = messages.flatMap((message) => {
    if (message.method !== 'notifications/cancelled') return [];
    const params = message.params as { requestId?: RequestId; reason?: unknown } | undefined;
    const requestId = params?.requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return [];
    const reason = typeof params?.reason === 'string' ? params.reason : 'cancelled';
    return [store.cancel(callRunId(sessionId, requestId), reason, { by: 'client' })];
  });
  await Promise.all(cancels);
}

/** The session is in use until `res` closes: its idle clock stops meanwhile. */
function holdWhileOpen(sessions: McpSessions, sessionId: string, res: ServerResponse): void {
  if (res.closed) return;
  res.once('close', sessions.hold(sessionId));
}

/** A refusal as the SDK's transport words them: a JSON-RPC error body with `id: null`. */
function refuse(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
  code = -32000,
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
