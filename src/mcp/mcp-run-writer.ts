import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { CancelDetails, RunStore, RunWriter } from '../runs/run-store.js';
import { formatEventId } from './mcp-event-id.js';

/**
 * The messages of one MCP event stream (the answer to one `POST`) kept as run `runId` of a
 * {@link RunStore}: each message one event — `kind: 'message'`, its JSON-RPC message as
 * `content`, sequences from 0 — the SSE priming event (an empty message) `kind: 'priming'`, and
 * the final event the response (`isFinal`), or an `end` sentinel when the stream ended without
 * one (a cancelled call, a closed session). Appends are serialised (sequence order is the order
 * of the calls) and wait while the store's writer is paused (a slow Redis), so a tool streaming
 * progress is paced by the store. Internal to `sluice/mcp`.
 *
 * @example
 * ```ts
 * const log = new McpRunWriter(store, 'mcp:s1:MQ');
 * const id = await log.append({ jsonrpc: '2.0', method: 'notifications/progress', params }); // 'mcp:s1:MQ@0'
 * ```
 */
export class McpRunWriter {
  readonly runId: string;
  readonly #writer: RunWriter;
  #next = 0;
  #ended = false;
  #tail: Promise<unknown> = Promise.resolve();
  /** Settles once the run's end is stored (or the store failed); never rejects. */
  readonly done: Promise<void>;

  constructor(store: RunStore, runId: string, label?: string) {
    this.runId = runId;
    this.#writer = store.openWriter(runId, label === undefined ? {} : { label });
    this.done = this.#writer.ended.then(
      () => this.#writer.close(),
      () => {
        // The store refused or failed: nothing more is kept; the live stream still works.
        this.#ended = true;
        this.#writer.close();
      },
    );
  }

  /** Whether the run has its final event (or can take no more). */
  get ended(): boolean {
    return this.#ended;
  }

  /** Stores `message` as the next event; resolves with its event id (`''` once the run ended). */
  append(message: JSONRPCMessage | Record<string, never>): Promise<string> {
    const appended = this.#tail.then(() => this.#appendNow(message));
    this.#tail = appended.catch(() => {});
    return appended;
  }

  /** Ends the run without a response (`{ kind: 'end', metadata: { reason } }`), once. */
  end(reason: string): void {
    if (this.#ended) return;
    this.#ended = true;
    const sentinel = {
      sequence: this.#next,
      kind: 'end',
      content: null,
      metadata: { reason },
      isFinal: true,
    };
    this.#next += 1;
    try {
      this.#writer.append(sentinel);
    } catch {
      // The writer failed already: `done` has settled.
    }
  }

  /** Calls `listener` when a cancel for this run arrives, from any instance ({@link RunStore.cancel}). */
  onCancel(listener: (reason: string, details: CancelDetails) => void): () => void {
    return this.#writer.onCancel(listener);
  }

  async #appendNow(message: JSONRPCMessage | Record<string, never>): Promise<string> {
    await whenFlowing(this.#writer);
    if (this.#ended) return '';
    const sequence = this.#next;
    const isFinal = 'id' in message && ('result' in message || 'error' in message);
    const kind = 'jsonrpc' in message ? 'message' : 'priming';
    this.#writer.append({ sequence, kind, content: message, isFinal });
    this.#next += 1;
    if (isFinal) this.#ended = true;
    return formatEventId(this.runId, sequence);
  }
}

/** Resolves at once, or when the writer's demand resumes (it holds its maximum of unacknowledged events). */
function whenFlowing(writer: RunWriter): Promise<void> {
  if (!writer.demand.paused) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = writer.demand.onChange((paused) => {
      if (paused) return;
      stop();
      resolve();
    });
  });
}
