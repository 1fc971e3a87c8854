import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { Subscription } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { Valve } from '../core/demand.js';
import { followRun } from '../runs/follow-run.js';
import type { RunStore } from '../runs/run-store.js';
import { nodeResponseSink } from '../runs/sse/node-response-sink.js';
import { formatEventId } from './mcp-event-id.js';
import type { StreamReaders } from './stream-readers.js';

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
 *
 * @example
 * ```ts
 * resumeMcpStream(store, res, { runId, after: 41, requestId: 7, sessionId });
 * ```
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

/** What {@link readMcpStream} tells its reader. */
export interface McpStreamReader {
  /** The stream's next JSON-RPC message and its event id. */
  message(eventId: string, message: JSONRPCMessage): void;
  /**
   * The stream ended (once): with its response, or — `failure` says why — without it: cancelled,
   * trimmed by the store's retention (`lost`), failed, or unreadable (`lost` too, with the error).
   */
  end(failure: McpStreamFailure | undefined): void;
}

/** Why an MCP event stream ended without its response ({@link McpStreamReader.end}). */
export interface McpStreamFailure {
  readonly message: string;
  /** Part of the stream cannot be given: trimmed by the store's retention, or the store failed (`error`). */
  readonly lost: boolean;
  readonly error?: unknown;
}

/**
 * Reads the messages of an MCP event stream kept as run `runId` (see `McpRunWriter`) after
 * `options.after`, until its response or, with `options.last`, that sequence: the one replay of a
 * stream, for a reconnect served by `serveMcpHttp` and for the SDK's own transport
 * (`RunStoreEventStore`). Paced by `options.demand` ({@link followRun}). Internal to `sluice/mcp`.
 */
export function readMcpStream(
  store: RunStore,
  runId: string,
  options: { after: number; last?: number; demand?: Valve },
  reader: McpStreamReader,
  owner = new Subscription(),
): Subscription {
  const { last = Number.POSITIVE_INFINITY } = options;
  let ended = false;
  const end = (failure?: McpStreamFailure) => {
    if (ended) return;
    ended = true;
    owner.unsubscribe();
    reader.end(failure);
  };
  return followRun(
    store,
    runId,
    options,
    {
      event: (event) => {
        if (event.sequence > last) return end();
        if (event.kind === 'message') reader.message(formatEventId(runId, event.sequence), contentOf(event));
        if (event.kind === 'end') {
          const reason = String((event.metadata as { reason?: unknown } | undefined)?.reason);
          return end({ message: `Request cancelled: ${reason}`, lost: false });
        }
        if (event.isFinal || event.sequence === last) end();
      },
      gap: ({ from, to }) =>
        end({
          message: `Events ${from}..${to} of this call are no longer kept (the store's retention)`,
          lost: true,
        }),
      failure: (failure) => end({ message: `The call's stream failed: ${failure.message}`, lost: false }),
      error: (error) =>
        end({ message: `The call's stream cannot be read: ${(error as Error).message}`, lost: true, error }),
      complete: () => end(),
    },
    owner,
  );
}

function contentOf(event: ChunkEvent<unknown>): JSONRPCMessage {
  return event.content as JSONRPCMessage;
}

function frame(id: string | undefined, message: JSONRPCMessage): string {
  return `event: message\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(message)}\n\n`;
}
