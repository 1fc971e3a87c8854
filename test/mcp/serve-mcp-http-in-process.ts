import { createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll } from 'vitest';
import { createToolRegistry, registerBuiltinTools } from '../../src/kernel/index.js';
import { type McpHttpHandler, type ServeMcpHttpOptions, serveMcpHttp } from '../../src/mcp/index.js';

/** `serveMcpHttp` on a real HTTP server on 127.0.0.1 (port 0), without a token. */
export interface InProcessMcpHttp {
  readonly url: string;
  readonly mcp: McpHttpHandler;
  /** `mcp.close()`, then the HTTP server's. */
  close(): Promise<void>;
}

/** Starts {@link InProcessMcpHttp} with the built-in tools and `options`. */
export async function startInProcessMcpHttp(
  options: Omit<ServeMcpHttpOptions, 'port'>,
): Promise<InProcessMcpHttp> {
  let handle: McpHttpHandler['handle'] = (_req, res) => res.writeHead(503).end();
  const http = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const mcp = serveMcpHttp(registerBuiltinTools(createToolRegistry()), { token: null, ...options, port });
  handle = mcp.handle;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    mcp,
    close: async () => {
      await mcp.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

/**
 * {@link startInProcessMcpHttp} for the tests of the enclosing `describe` (`beforeAll`), closed
 * after them with its run store (`afterAll`). Call it before the block's own hooks: vitest runs
 * `afterAll` hooks last-registered first, so the block's own cleanup (clients) runs first.
 */
export function mcpHttpForSuite(options: Omit<ServeMcpHttpOptions, 'port'>): InProcessMcpHttp {
  let server: InProcessMcpHttp | undefined;
  beforeAll(async () => {
    server = await startInProcessMcpHttp(options);
  });
  afterAll(async () => {
    await server?.close();
    await server?.mcp.store.close();
  });
  const started = (): InProcessMcpHttp => {
    if (server === undefined) throw new Error('mcpHttpForSuite: the server starts in beforeAll');
    return server;
  };
  return {
    get url() {
      return started().url;
    },
    get mcp() {
      return started().mcp;
    },
    close: () => started().close(),
  };
}

/** A raw request to the MCP endpoint (no SDK): the response, unread. */
export function rawMcpRequest(
  url: string,
  init: { method: 'POST' | 'GET' | 'DELETE'; sessionId?: string; lastEventId?: string; body?: unknown },
): Promise<IncomingMessage> {
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': '2025-06-18',
  };
  if (init.sessionId !== undefined) headers['mcp-session-id'] = init.sessionId;
  if (init.lastEventId !== undefined) headers['last-event-id'] = init.lastEventId;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method, headers }, resolve);
    req.on('error', reject);
    req.end(init.body === undefined ? undefined : JSON.stringify(init.body));
  });
}

/** `initialize` by a raw request; resolves the new session's id. */
export async function rawInitialize(url: string): Promise<string> {
  const res = await rawMcpRequest(url, {
    method: 'POST',
    body: {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    },
  });
  res.resume();
  const sessionId = res.headers['mcp-session-id'];
  if (typeof sessionId !== 'string')
    throw new Error(`initialize answered ${res.statusCode} without a session`);
  return sessionId;
}

/**
 * Reads an SSE response as it arrives: `events` the complete events' JSON-RPC messages, `lastId`
 * the last event id, `lines` the lines carried by complete progress notifications so far, `first`
 * the text of the first one.
 */
export function readSse(res: IncomingMessage) {
  const state = {
    lines: 0,
    first: undefined as string | undefined,
    lastId: undefined as string | undefined,
    messages: [] as unknown[],
  };
  let buffer = '';
  res.setEncoding('utf8');
  res.on('data', (text: string) => {
    buffer += text;
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      const id = /^id: (.*)$/m.exec(event)?.[1];
      if (id !== undefined) state.lastId = id;
      const data = /^data: (.+)$/m.exec(event)?.[1];
      if (data === undefined) continue;
      const message = JSON.parse(data) as { method?: string; params?: { message?: string } };
      if (message.method === 'notifications/progress') {
        state.first ??= message.params?.message;
        state.lines += (message.params?.message?.split('\n').length ?? 1) - 1;
      } else state.messages.push(message);
    }
  });
  return state;
}

/**
 * The SDK's own Client over its Streamable HTTP transport. With `rejoin`, that client connects
 * again on a new transport to its session (its request ids go on: a session's ids are unique).
 */
export async function connectMcpClient(url: string, rejoin?: { client: Client; sessionId: string }) {
  const transport = new StreamableHTTPClientTransport(
    new URL(url),
    rejoin === undefined ? {} : { sessionId: rejoin.sessionId },
  );
  const client = rejoin?.client ?? new Client({ name: 'sluice-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, sessionId: transport.sessionId as string };
}
