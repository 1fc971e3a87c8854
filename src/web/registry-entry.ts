import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RunStore } from '../runs/run-store.js';
import type { RunSseEndpoint } from '../runs/sse/run-sse-endpoint.js';
import { RunLimitError } from './run-limit-error.js';
import type { RunLogFile } from './run-log-file.js';

/** What a {@link RegistryEntry} shares with its registry. Internal. */
export interface RegistryEntryHooks {
  readonly store: RunStore;
  readonly endpoint: RunSseEndpoint;
  viewersChanged(run: RegistryEntry): void;
  readonly maxViewers: number;
}

/**
 * A {@link RunRegistry}'s entry for one run. The run lives in the registry's store, so one another
 * server sharing it started is shown, followed and cancelled here too (`held: false`).
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
  readonly id: string;
  /** The command, as the page shows it. */
  readonly command: string;
  /** When it started, in ms (the registry's scheduler clock, or the writer's for a run held elsewhere). */
  readonly startedAt: number;
  /** Whether this registry started it (it runs here, with a full log) rather than found it in the store. */
  readonly held: boolean;
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

  /** Open event streams on this server. */
  get viewers(): number {
    return this.#responses.size;
  }

  get ended(): boolean {
    return this.#endedAt !== undefined;
  }

  /** When this server saw it end (the registry's clock, ms). */
  get endedAt(): number | undefined {
    return this.#endedAt;
  }

  get freed(): boolean {
    return this.#freed;
  }

  /**
   * Ends the run wherever it runs (the store's cancel): its source is unsubscribed, then every
   * viewer gets `{ kind: 'end', metadata: { reason: 'cancelled', by } }`. `false` if it had ended.
   */
  cancel(by = 'api'): Promise<boolean> {
    return this.#hooks.store.cancel(this.id, 'cancelled', { by });
  }

  /**
   * Serves one SSE viewer, resuming after `Last-Event-ID` (or `?lastEventId=`): `204` when nothing
   * follows it, `400` for a bad id, `429` past `maxViewers`, `404` once the store lost the run. The
   * caller checks access first (`createWebGuard`).
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

  markEnded(at: number): void {
    this.#endedAt ??= at;
  }

  markFreed(): void {
    this.#freed = true;
  }
}
