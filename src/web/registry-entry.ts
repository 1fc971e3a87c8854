import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RunStore } from '../runs/run-store.js';
import type { RunSseEndpoint } from '../runs/sse/run-sse-endpoint.js';
import { RunLimitError } from './run-limit-error.js';
import type { RunLogFile } from './run-log-file.js';

/** What a {@link RegistryEntry} shares with its registry; internal to `sluice/web`. */
export interface RegistryEntryHooks {
  readonly store: RunStore;
  /** Serves the store's runs over SSE. */
  readonly endpoint: RunSseEndpoint;
  viewersChanged(run: RegistryEntry): void;
  /** At most this many viewers at once. */
  readonly maxViewers: number;
}

/**
 * One run a {@link RunRegistry} shows: its id, the command shown on the page, when it started,
 * and the file its full log is spooled to. The run itself lives in the registry's run store, so
 * a run started by another server that shares the store (Redis) is shown, followed and cancelled
 * here too (`held` is `false` for those: this server neither runs nor spools it). Viewers attach
 * with {@link follow}; {@link cancel} ends it early, wherever it runs, and records who cancelled.
 *
 * @example
 * ```ts
 * import { exec } from 'sluice';
 * import { RunRegistry } from 'sluice/web';
 *
 * const registry = new RunRegistry();
 * const run = registry.start(exec('make', ['-j8'], { reject: false }), { command: 'make -j8' });
 * createServer((req, res) => run.follow(req, res)).listen(8080); // GET: SSE with resume
 * await run.cancel('api'); // kills make's process group; viewers see `{ reason: 'cancelled', by: 'api' }`
 * ```
 */
export class RegistryEntry {
  /** The run's id (in its URLs and in the store). */
  readonly id: string;
  /** The command, as shown on the page. */
  readonly command: string;
  /** When it started, in ms (the registry's scheduler clock, or the writer's for a run held elsewhere). */
  readonly startedAt: number;
  /** Whether this registry started it (it runs here, with a full log) rather than found it in the store. */
  readonly held: boolean;
  /** The full log, unless the registry keeps none (or the run is held elsewhere). */
  readonly log: RunLogFile | undefined;
  readonly #hooks: RegistryEntryHooks;
  readonly #responses = new Set<ServerResponse>();
  #endedAt: number | undefined;
  #freed = false;

  constructor(
    info: { id: string; command: string; startedAt: number; held: boolean },
    log: RunLogFile | undefined,
    hooks: RegistryEntryHooks,
  ) {
    this.id = info.id;
    this.command = info.command;
    this.startedAt = info.startedAt;
    this.held = info.held;
    this.log = log;
    this.#hooks = hooks;
  }

  /** Viewers attached right now (open event streams on this server). */
  get viewers(): number {
    return this.#responses.size;
  }

  /** Whether the run has ended, as far as this server knows. */
  get ended(): boolean {
    return this.#endedAt !== undefined;
  }

  /** When this server saw it end (the registry's scheduler clock, ms), or `undefined`. */
  get endedAt(): number | undefined {
    return this.#endedAt;
  }

  /** Whether the registry has let it go (its viewers were dropped, its log deleted). */
  get freed(): boolean {
    return this.#freed;
  }

  /**
   * Ends the run early, wherever it runs (through the store's cancel): its source is unsubscribed
   * (an `exec` source kills its process group), then every viewer gets the final
   * `{ kind: 'end', metadata: { reason: 'cancelled', by } }`. Resolves `false` if it had already
   * ended.
   */
  cancel(by = 'api'): Promise<boolean> {
    return this.#hooks.store.cancel(this.id, 'cancelled', { by });
  }

  /**
   * Serves one SSE viewer on a `node:http` response: `GET`, resuming after `Last-Event-ID` (or
   * `?lastEventId=`). Answers `204` when nothing follows that event, `400` for a bad id, `429`
   * past `maxViewers`, `404` once the store no longer has the run. The caller checks access first
   * (see `createWebGuard`).
   */
  follow(req: IncomingMessage, res: ServerResponse): void {
    if (this.#responses.size >= this.#hooks.maxViewers) {
      const error = new RunLimitError({ limit: 'maxViewers', max: this.#hooks.maxViewers });
      res.writeHead(429, { 'content-type': 'text/plain; charset=utf-8' }).end(error.message);
      return;
    }
    this.#responses.add(res);
    res.once('close', () => {
      this.#responses.delete(res);
      this.#hooks.viewersChanged(this);
    });
    this.#hooks.viewersChanged(this);
    this.#hooks.endpoint.serve(this.id, req, res);
  }

  /** Drops every viewer's connection (the run goes on; pages reconnect with `Last-Event-ID`). */
  disconnectViewers(): void {
    for (const res of [...this.#responses]) res.destroy();
  }

  /** Called by the registry when it sees the run end. */
  markEnded(at: number): void {
    this.#endedAt ??= at;
  }

  /** Called by the registry when it lets the run go. */
  markFreed(): void {
    this.#freed = true;
  }
}
