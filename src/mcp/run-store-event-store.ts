import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { optionError } from '../core/option-error.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { RunOutlet } from '../runs/run-outlet.js';
import type { RunStore } from '../runs/run-store.js';
import { parseEventId, readMcpStream, storeMessage } from './mcp-stream.js';

/** Options of {@link RunStoreEventStore}. */
export interface RunStoreEventStoreOptions {
  /** Run ids are `<prefix><streamId>`. Default `'mcp-stream:'`. */
  readonly prefix?: string;
}

/**
 * The MCP SDK's `EventStore` (the resumability of its Streamable HTTP transport) kept in a
 * {@link RunStore}: each SSE stream a run (`<prefix><streamId>`), each message one event, an
 * event id `<run>@<sequence>`, so a replay is an exact read after that sequence. For the SDK's own
 * stateful transport on one instance; `serveMcpHttp` serves reconnects itself, from any instance.
 *
 * @example
 * ```ts
 * import { randomUUID } from 'node:crypto';
 * import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
 * import { MemoryRunStore } from 'sluice';
 * import { RunStoreEventStore, serveMcp } from 'sluice/mcp';
 * const transport = new StreamableHTTPServerTransport({
 *   sessionIdGenerator: () => randomUUID(),
 *   eventStore: new RunStoreEventStore(new MemoryRunStore()),
 * });
 * await serveMcp(registry, transport, { allow: ['git'] });
 * ```
 */
export class RunStoreEventStore implements EventStore {
  readonly #store: RunStore;
  readonly #prefix: string;
  readonly #streams = new Map<StreamId, RunOutlet>();

  constructor(store: RunStore, options: RunStoreEventStoreOptions = {}) {
    if (typeof store?.openWriter !== 'function') throw optionError('store', 'a RunStore', store, 'argument');
    if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
    rejectUnknownOptions(options, ['prefix']);
    const { prefix = 'mcp-stream:' } = options;
    if (typeof prefix !== 'string') throw optionError('prefix', 'a string', prefix);
    this.#store = store;
    this.#prefix = prefix;
  }

  /** Stores `message` as the next event of stream `streamId` (its run is opened by the first). */
  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    let stream = this.#streams.get(streamId);
    if (stream === undefined || (stream.ended && streamId === '_GET_stream')) {
      // The standalone GET stream's id is the same in every session: give each one its own run.
      const suffix = streamId === '_GET_stream' ? `${streamId}:${crypto.randomUUID()}` : streamId;
      stream = new RunOutlet(this.#store, `${this.#prefix}${suffix}`);
      this.#streams.set(streamId, stream);
    }
    const id = await storeMessage(stream, message);
    if (stream.ended) this.#streams.delete(streamId);
    return id;
  }

  /** The stream an event id belongs to, or `undefined` for an id this store did not give. */
  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    const parsed = parseEventId(eventId);
    if (parsed === undefined || !parsed.runId.startsWith(this.#prefix)) return undefined;
    return parsed.runId.slice(this.#prefix.length);
  }

  /** Sends the messages stored after `lastEventId` so far, in order, and resolves with their stream. */
  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const streamId = await this.getStreamIdForEventId(lastEventId);
    const parsed = parseEventId(lastEventId);
    if (streamId === undefined || parsed === undefined) throw new Error(`Unknown event id ${lastEventId}`);
    const info = await this.#store.info(parsed.runId);
    if (info === undefined) throw new Error(`Stream ${streamId} is no longer kept`);
    const last = info.next - 1;
    if (last <= parsed.sequence) return streamId;
    const sends: Promise<void>[] = [];
    await new Promise<void>((resolve, reject) => {
      readMcpStream(
        this.#store,
        parsed.runId,
        { after: parsed.sequence, last },
        {
          message: (eventId, message) => sends.push(send(eventId, message)),
          // A stream that ended without its response (cancelled, failed) was replayed whole all the same.
          end: (failure) => {
            if (failure?.lost !== true) resolve();
            else reject(failure.error instanceof Error ? failure.error : new Error(failure.message));
          },
        },
      );
    });
    await Promise.all(sends);
    return streamId;
  }
}
