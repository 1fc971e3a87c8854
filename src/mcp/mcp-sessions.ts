import type { Subscription } from 'rxjs';
import type { RunStore, RunWriter } from '../runs/run-store.js';

/** The run that stands for MCP session `sessionId` in the store. */
const sessionRun = (sessionId: string) => `mcp-session:${sessionId}`;

/**
 * The MCP sessions of `serveMcpHttp`, kept in a {@link RunStore} so that every instance sharing
 * the store knows them: a session is a run (`mcp-session:<id>`) without events, owned by the
 * instance that answered its `initialize`, live until it ends — by a `DELETE` on any instance
 * (a cancel through the store), by that instance closing, or, in Redis, by its lease running
 * out when that instance died. Instances running calls of a session watch its run and end those
 * calls when it ends. Internal to `sluice/mcp`.
 *
 * @example
 * ```ts
 * const sessions = new McpSessions(store);
 * await sessions.open(id);
 * if (!(await sessions.alive(id))) answer(404);
 * ```
 */
export class McpSessions {
  readonly #store: RunStore;
  readonly #owned = new Map<string, RunWriter>();
  readonly #watchers = new Map<
    string,
    { readonly subscription: Subscription; readonly ends: Set<() => void> }
  >();

  constructor(store: RunStore) {
    this.#store = store;
  }

  /** Starts session `sessionId` owned by this instance. */
  async open(sessionId: string): Promise<void> {
    const writer = this.#store.openWriter(sessionRun(sessionId), { label: 'MCP session' });
    this.#owned.set(sessionId, writer);
    writer.onCancel((reason) => this.#endOwned(sessionId, reason));
    writer.ended.then(
      () => writer.close(),
      () => writer.close(),
    );
  }

  /** Whether the session exists and has not ended (asks the store unless this instance owns it). */
  async alive(sessionId: string): Promise<boolean> {
    if (this.#owned.has(sessionId)) return true;
    const info = await this.#store.info(sessionRun(sessionId));
    return info !== undefined && info.state !== 'ended';
  }

  /** Ends the session wherever it is owned; `false` when it was unknown or had ended. */
  end(sessionId: string, reason: string): Promise<boolean> {
    if (this.#owned.has(sessionId)) {
      this.#endOwned(sessionId, reason);
      return Promise.resolve(true);
    }
    return this.#store.cancel(sessionRun(sessionId), reason);
  }

  /**
   * Calls `onEnd` once when the session ends (on any instance); returns a function that stops
   * watching. One read of the session's run per session with calls on this instance.
   */
  watch(sessionId: string, onEnd: () => void): () => void {
    let watcher = this.#watchers.get(sessionId);
    if (watcher === undefined) {
      const ends = new Set<() => void>();
      const fire = () => {
        this.#watchers.delete(sessionId);
        for (const end of [...ends]) end();
      };
      const subscription = this.#store.read(sessionRun(sessionId)).subscribe({
        next: (record) => {
          if (record.type !== 'events' || record.events.some((event) => event.isFinal)) fire();
        },
        error: fire,
        complete: fire,
      });
      watcher = { subscription, ends };
      if (!subscription.closed) this.#watchers.set(sessionId, watcher);
    }
    const { ends, subscription } = watcher;
    const end = () => {
      ends.delete(end);
      onEnd();
    };
    ends.add(end);
    if (subscription.closed && !this.#watchers.has(sessionId)) end();
    return () => {
      ends.delete(end);
      if (ends.size > 0 || this.#watchers.get(sessionId) !== watcher) return;
      this.#watchers.delete(sessionId);
      subscription.unsubscribe();
    };
  }

  /** Ends every session this instance owns (the server is closing). */
  close(): void {
    for (const sessionId of [...this.#owned.keys()]) this.#endOwned(sessionId, 'server closed');
    for (const { subscription } of this.#watchers.values()) subscription.unsubscribe();
    this.#watchers.clear();
  }

  #endOwned(sessionId: string, reason: string): void {
    const writer = this.#owned.get(sessionId);
    if (writer === undefined) return;
    this.#owned.delete(sessionId);
    try {
      writer.append({ sequence: 0, kind: 'end', content: null, metadata: { reason }, isFinal: true });
    } catch {
      // The store failed already.
    }
  }
}
