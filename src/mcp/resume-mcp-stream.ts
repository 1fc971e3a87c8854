import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { Subscription } from 'rxjs';
import { Valve } from '../core/demand.js';
import type { RunStore } from '../runs/run-store.js';
import { nodeResponseSink } from '../runs/sse/sse-sink.js';
import { readMcpStream } from './mcp-stream.js';
import type { StreamReaders } from './serve-mcp-post.js';

/** A `: keepalive` comment this often on a quiet resumed stream (proxies drop idle connections). */
const KEEP_ALIVE_MS = 15_000;

/**
 * Serves a reconnect (`GET` with `Last-Event-ID`) from the store: the run's messages after
 * `after`, live until its response, as the SDK's transport writes them (`event: message`, the
 * same event ids), so the client cannot tell which instance answers. The store is read only while
 * the socket drains; when the call runs on this instance, its progress waits for this reader
 * too (`readers`). A stream that ended without a response, a gap (retention trimmed what the
 * client needs) or a failed run ends with a JSON-RPC error for `requestId`, so the client's call
 * fails instead of waiting, and it stops reconnecting. Internal to `sluice/mcp`.
 */
export function resumeMcpStream(
  store: RunStore,
  res: ServerResponse,
  where: {
    runId: string;
    after: number;
    requestId: RequestId | undefined;
    sessionId: string;
    readers?: StreamReaders | undefined;
  },
): void {
  const { runId, after, requestId } = where;
  res.setHeader('mcp-session-id', where.sessionId);
  const sink = nodeResponseSink(res);
  const valve = new Valve();
  const removeReader = where.readers?.add(valve);
  const subscription = new Subscription();
  let done = false;
  const finish = (last?: JSONRPCMessage) => {
    if (done) return;
    done = true;
    removeReader?.();
    if (last !== undefined) sink.write(frame(undefined, last));
    sink.end();
    clearInterval(keepAlive);
    subscription.unsubscribe();
  };
  const keepAlive = setInterval(() => sink.write(': keepalive\n\n'), KEEP_ALIVE_MS);
  const fail = (message: string) =>
    finish(
      requestId === undefined
        ? undefined
        : { jsonrpc: '2.0', id: requestId, error: { code: -32000, message } },
    );
  sink.onDrain(() => valve.resume());
  sink.onClose(() => {
    done = true;
    removeReader?.();
    clearInterval(keepAlive);
    subscription.unsubscribe();
  });
  readMcpStream(
    store,
    runId,
    { after, demand: valve },
    {
      message: (eventId, message) => {
        if (!sink.write(frame(eventId, message))) valve.pause();
      },
      end: (failure) => (failure === undefined ? finish() : fail(failure.message)),
    },
    subscription,
  );
}

function frame(id: string | undefined, message: JSONRPCMessage): string {
  return `event: message\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(message)}\n\n`;
}
