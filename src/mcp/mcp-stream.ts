import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { Subscription } from 'rxjs';
import type { Demand } from '../core/demand.js';
import { followRun } from '../runs/follow-run.js';
import type { RunOutlet } from '../runs/run-outlet.js';
import type { RunStore } from '../runs/run-store.js';

// One MCP event stream (the answer to one `POST`) kept as a run of a RunStore: each JSON-RPC
// message one event (`kind: 'message'`, the message as `content`), the SSE priming event (an
// empty message) `kind: 'priming'`, the response the final event — or an `end` sentinel when the
// stream ended without one (a cancelled call, a closed session). An event id is the run and the
// message's sequence, so a replay is an exact read after that sequence (docs/mcp.md, "Resuming").

/**
 * The run that keeps the event stream of request `requestId` of session `sessionId`
 * (`mcp:<session>:<id as base64url JSON>`): every instance derives the same id, so a cancel for
 * the request reaches its run from any of them. A client may not reuse a request id within a
 * session (the MCP specification).
 */
export function callRunId(sessionId: string, requestId: RequestId): string {
  return `mcp:${sessionId}:${Buffer.from(JSON.stringify(requestId)).toString('base64url')}`;
}

/** The session and request of a run named by {@link callRunId}, or `undefined` for any other id. */
export function parseCallRunId(runId: string): { sessionId: string; requestId: RequestId } | undefined {
  const match = /^mcp:([^:]+):([A-Za-z0-9_-]+)$/.exec(runId);
  if (match === null) return undefined;
  try {
    const requestId: unknown = JSON.parse(Buffer.from(match[2] as string, 'base64url').toString('utf8'));
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return undefined;
    return { sessionId: match[1] as string, requestId };
  } catch {
    return undefined;
  }
}

/** The SSE event id of the `sequence`-th message of run `runId`: `<runId>@<sequence>`. */
export function formatEventId(runId: string, sequence: number): string {
  return `${runId}@${sequence}`;
}

/** The run and sequence of a {@link formatEventId} id, or `undefined` for any other text (outside input). */
export function parseEventId(eventId: string): { runId: string; sequence: number } | undefined {
  const at = eventId.lastIndexOf('@');
  if (at <= 0) return undefined;
  const digits = eventId.slice(at + 1);
  if (!/^\d{1,15}$/.test(digits)) return undefined;
  return { runId: eventId.slice(0, at), sequence: Number(digits) };
}

/**
 * Keeps `message` as the next event of the stream's run, paced by the store ({@link RunOutlet.paced}):
 * resolves with its event id, `''` once the stream has ended.
 */
export async function storeMessage(
  run: RunOutlet,
  message: JSONRPCMessage | Record<string, never>,
): Promise<string> {
  const isFinal = 'id' in message && ('result' in message || 'error' in message);
  const sequence = await run.paced('jsonrpc' in message ? 'message' : 'priming', message, isFinal);
  return sequence === undefined ? '' : formatEventId(run.runId, sequence);
}

/** Why an MCP event stream ended without its response: `lost` when part of it cannot be given. */
export interface McpStreamFailure {
  readonly message: string;
  readonly lost: boolean;
  readonly error?: unknown;
}

/**
 * Reads the messages of the MCP stream kept as run `runId` after `options.after`, until its
 * response or, with `options.last`, that sequence: the one replay of a stream, for a reconnect
 * served by `serveMcpHttp` and for the SDK's own transport (`RunStoreEventStore`). `end` is called
 * once: without a failure after the response, else with why (cancelled, trimmed by the store's
 * retention, failed, unreadable). Paced by `options.demand` ({@link followRun}).
 */
export function readMcpStream(
  store: RunStore,
  runId: string,
  options: { after: number; last?: number; demand?: Demand },
  reader: {
    message(eventId: string, message: JSONRPCMessage): void;
    end(failure: McpStreamFailure | undefined): void;
  },
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
        if (event.kind === 'message') {
          reader.message(formatEventId(runId, event.sequence), event.content as JSONRPCMessage);
        }
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
