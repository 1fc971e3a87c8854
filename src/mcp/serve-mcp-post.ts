import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Demand } from '../core/demand.js';
import { isRunStoreError } from '../core/errors/run-store-error.js';
import { RunOutlet } from '../runs/run-outlet.js';
import type { RunStore } from '../runs/run-store.js';
import type { McpSdk } from './load-mcp-sdk.js';
import type { McpServerScope } from './mcp-server-factory.js';
import type { McpSessions } from './mcp-sessions.js';
import { callRunId, storeMessage } from './mcp-stream.js';
import type { McpTasks } from './mcp-tasks.js';

/** What {@link serveMcpPost} needs from the server it belongs to. */
export interface McpPostContext {
  readonly store: RunStore;
  readonly sessions: McpSessions;
  /** The SDK, loaded once when the server starts (an optional peer: this rejects where it is missing). */
  readonly sdk: Promise<McpSdk>;
  readonly makeServer: (sdk: McpSdk, scope: McpServerScope) => Server;
  /** The MCP Tasks of every session, kept in the store. */
  readonly tasks: McpTasks;
  /** The calls running here, by run id; `readers` are its stream's live readers, whose pace its progress follows. */
  readonly calls: Map<
    string,
    { stop(reason: string): void; readonly done: Promise<void>; readonly readers: StreamReaders }
  >;
  /** The `retry:` of the priming event: how long a client waits before it reconnects, in ms. */
  readonly retryMs: number;
}

/**
 * Answers a `POST` of requests with a fresh SDK `Server` on a stateless transport; its event
 * stream is run {@link callRunId}, resumable anywhere. The call outlives its connection: it ends
 * with its response, or a cancel through the store (the stream ends `Request cancelled: <reason>`).
 */
export async function serveMcpPost(
  context: McpPostContext,
  req: IncomingMessage,
  res: ServerResponse,
  post: { sessionId: string; body: unknown; requests: readonly JSONRPCRequest[] },
): Promise<void> {
  const { sessionId, body, requests } = post;
  const first = requests[0] as JSONRPCRequest;
  const runId = callRunId(sessionId, first.id);
  let log: RunOutlet;
  try {
    log = new RunOutlet(context.store, runId, { label: `MCP ${first.method}` });
  } catch (error) {
    if (!isRunStoreError(error, 'RUN_EXISTS')) throw error;
    const message = `Invalid Request: request id ${JSON.stringify(first.id)} was used before in this session`;
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message }, id: first.id }));
    return;
  }
  const sdk = await context.sdk;
  const transport = new sdk.StreamableHTTPServerTransport({
    eventStore: {
      // The standalone stream is not used: this server sends nothing outside a request's stream.
      storeEvent: (streamId, message) =>
        streamId === '_GET_stream' ? Promise.resolve('') : storeMessage(log, message),
      replayEventsAfter: () => Promise.reject(new Error('a reconnect is served from the run store')),
    },
    retryInterval: context.retryMs,
  });
  const server = context.makeServer(sdk, {
    sessionId,
    tasks: {
      store: context.tasks.forSession(sessionId),
      start: (requested, call) => context.tasks.start(sessionId, requested, call),
      listable: context.tasks.listable,
    },
  });
  const readers = new StreamReaders();
  let answered = 0;
  let finished = false;
  let stopping = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    readers.close();
    stopCancel();
    stopWatch();
    context.calls.delete(runId);
    void server.close().catch(() => {});
  };
  const stop = (reason: string) => {
    if (finished || stopping) return;
    stopping = true;
    readers.close();
    const ends = cancelRequests(transport, requests, reason, sdk.ErrorCode.ConnectionClosed);
    void ends.then(() => {
      log.end(reason);
      finish();
    });
  };
  const stopCancel = log.onCancel((reason) => stop(reason));
  const stopWatch = context.sessions.watch(sessionId, () => stop('session ended'));
  readers.add(responseDemand(res));
  context.calls.set(runId, { stop, done: log.stored.catch(() => {}), readers });
  paceSends(transport, readers, () => {
    if (++answered === requests.length) finish();
  });
  await server.connect(transport);
  res.setHeader('mcp-session-id', sessionId);
  await transport.handleRequest(req, res, body);
  // Refused by the transport (a bad Accept or protocol version header): no request will be answered.
  if (res.statusCode >= 400) stop('refused');
}

type Transport = InstanceType<McpSdk['StreamableHTTPServerTransport']>;

/**
 * Aborts the handlers of `requests` (as a client's `notifications/cancelled` would) and answers
 * each with an error response, which ends the stream so no client keeps reconnecting.
 */
function cancelRequests(
  transport: Transport,
  requests: readonly JSONRPCRequest[],
  reason: string,
  code: number,
): Promise<unknown> {
  for (const request of requests) {
    const cancel: JSONRPCMessage = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: request.id, reason },
    };
    transport.onmessage?.(cancel);
  }
  return Promise.all(
    requests.map((request) =>
      transport
        .send({ jsonrpc: '2.0', id: request.id, error: { code, message: `Request cancelled: ${reason}` } })
        .catch(() => {}),
    ),
  );
}

/** A notification waits for the stream's `readers`; a response never does (a cancel always ends the stream). */
function paceSends(transport: Transport, readers: StreamReaders, onResponse: () => void): void {
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    if (!('id' in message)) await readers.whenReady();
    await send(message, options);
    if ('id' in message && ('result' in message || 'error' in message)) onResponse();
  };
}

/**
 * A `ServerResponse` the SDK's transport writes (through `@hono/node-server`, which stops reading
 * when `res.write` answers `false`) as a {@link Demand}: paused while `res.writableNeedDrain`.
 */
export function responseDemand(res: ServerResponse): Demand {
  return {
    get paused() {
      return res.writableNeedDrain && !res.destroyed && !res.writableFinished;
    },
    onChange(listener) {
      const resumed = () => listener(false);
      res.on('drain', resumed);
      res.on('close', resumed);
      return () => {
        res.off('drain', resumed);
        res.off('close', resumed);
      };
    },
  };
}

/**
 * The live readers of one call's event stream here, as demands: each progress notification
 * awaits {@link StreamReaders.whenReady}, so a slow client pauses the tool. A closed one is ready.
 */
export class StreamReaders {
  readonly #readers = new Set<Demand>();
  readonly #waiting = new Set<() => void>();
  #closed = false;

  /** Adds a reader; returns a function that removes it (its connection ended). */
  add(reader: Demand): () => void {
    this.#readers.add(reader);
    return () => {
      this.#readers.delete(reader);
      this.#wake();
    };
  }

  /** Resolves at once when no reader is paused (or after {@link close}), else when they have room. */
  async whenReady(): Promise<void> {
    for (;;) {
      const paused = this.#closed ? undefined : [...this.#readers].find((reader) => reader.paused);
      if (paused === undefined) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          stop();
          this.#waiting.delete(done);
          resolve();
        };
        const stop = paused.onChange((now) => {
          if (!now) done();
        });
        this.#waiting.add(done);
      });
    }
  }

  /** The call ended: nothing waits for a reader any more. */
  close(): void {
    this.#closed = true;
    this.#wake();
  }

  /** Lets every waiter look again. */
  #wake(): void {
    for (const done of [...this.#waiting]) done();
  }
}
