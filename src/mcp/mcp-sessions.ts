import type { SchedulerLike, Subscription } from 'rxjs';
import { watchRunEnd } from '../runs/follow-run.js';
import { RunOutlet } from '../runs/run-outlet.js';
import type { RunStore } from '../runs/run-store.js';

/** The run that stands for MCP session `sessionId` in the store. */
const sessionRun = (sessionId: string) => `mcp-session:${sessionId}`;

/**
 * The MCP sessions of `serveMcpHttp` as runs without events in a {@link RunStore}, owned by the
 * instance that answered `initialize`. A session ends by a `DELETE` anywhere, its owner closing
 * or dying (its lease), or `idleMs` unused (see {@link McpSessions.hold}); calls of it end then.
 */
export class McpSessions {
  readonly #store: RunStore;
  readonly #idleMs: number;
  readonly #scheduler: SchedulerLike;
  readonly #owned = new Map<string, RunOutlet>();
  /** Of each owned session: its open requests and streams here, and the idle timer while none. */
  readonly #activity = new Map<string, { open: number; timer: Subscription | undefined }>();
  readonly #watchers = new Map<
    string,
    { readonly subscription: Subscription; readonly ends: Set<() => void> }
  >();

  /** `idleMs` and `scheduler` were checked by `serveMcpHttp`. */
  constructor(store: RunStore, idle: { readonly idleMs: number; readonly scheduler: SchedulerLike }) {
    this.#store = store;
    this.#idleMs = idle.idleMs;
    this.#scheduler = idle.scheduler;
  }

  /** Starts session `sessionId` owned by this instance. */
  async open(sessionId: string): Promise<void> {
    const run = new RunOutlet(this.#store, sessionRun(sessionId), { label: 'MCP session' });
    this.#owned.set(sessionId, run);
    this.#activity.set(sessionId, { open: 0, timer: undefined });
    this.#armIdle(sessionId);
    run.onCancel((reason) => this.#endOwned(sessionId, reason));
  }

  /** Whether the session exists and has not ended (asks the store unless this instance owns it). */
  async alive(sessionId: string): Promise<boolean> {
    if (this.#owned.has(sessionId)) return true;
    const info = await this.#store.info(sessionRun(sessionId));
    return info !== undefined && info.state !== 'ended';
  }

  /** A response of the session is open here: an owned session does not idle out until the returned release. */
  hold(sessionId: string): () => void {
    const activity = this.#activity.get(sessionId);
    if (activity === undefined) return () => {};
    activity.open += 1;
    activity.timer?.unsubscribe();
    activity.timer = undefined;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      activity.open -= 1;
      if (activity.open === 0 && this.#activity.get(sessionId) === activity) this.#armIdle(sessionId);
    };
  }

  /** Ends the session wherever it is owned; `false` when it was unknown or had ended. */
  end(sessionId: string, reason: string): Promise<boolean> {
    if (this.#owned.has(sessionId)) {
      this.#endOwned(sessionId, reason);
      return Promise.resolve(true);
    }
    return this.#store.cancel(sessionRun(sessionId), reason);
  }

  /** Calls `onEnd` once when the session ends anywhere (one read of its run per instance); returns an unwatch. */
  watch(sessionId: string, onEnd: () => void): () => void {
    let watcher = this.#watchers.get(sessionId);
    if (watcher === undefined) {
      const ends = new Set<() => void>();
      const fire = () => {
        this.#watchers.delete(sessionId);
        for (const end of [...ends]) end();
      };
      const subscription = watchRunEnd(this.#store, sessionRun(sessionId), fire);
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

  #armIdle(sessionId: string): void {
    const activity = this.#activity.get(sessionId);
    if (activity === undefined) return;
    activity.timer?.unsubscribe();
    activity.timer = this.#scheduler.schedule(
      () => this.#endOwned(sessionId, `session idle for ${this.#idleMs} ms`),
      this.#idleMs,
    );
  }

  #endOwned(sessionId: string, reason: string): void {
    const run = this.#owned.get(sessionId);
    if (run === undefined) return;
    this.#owned.delete(sessionId);
    this.#activity.get(sessionId)?.timer?.unsubscribe();
    this.#activity.delete(sessionId);
    run.end(reason);
  }
}
