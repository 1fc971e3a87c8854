import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { Subscription } from 'rxjs';
import type { Demand } from '../core/demand.js';
import { followRun } from '../runs/follow-run.js';
import type { RunOutlet } from '../runs/run-outlet.js';
import type { RunStore } from '../runs/run-store.js';

// One MCP event stream (the answer to one `POST`) as a run: each message an event, the response
// the final one (or the `end` sentinel); an event id names run and sequence (docs/mcp.md, "Resuming").

/**
 * The run of request `requestId`'s event stream: every instance derives the same id, so a cancel
 * reaches it from any of them (a client may not reuse a request id within a session).
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
 * The one replay of an MCP stream (for `serveMcpHttp` and `RunStoreEventStore`): its messages after
 * `options.after` until the response (or `options.last`), paced by `options.demand`. `end` is
 * called once, with why when the stream did not end with its response.
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
