import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeResponseSink } from '../adapters/sse/node-response-sink.js';
import { readLastEventId } from '../adapters/sse/read-last-event-id.js';
import { RunLimitError } from './run-limit-error.js';
import type { RunLogFile } from './run-log-file.js';
import type { RunStream } from './run-stream.js';

/**
 * What a {@link WebRun} tells its registry; internal to `sluice/web`.
 *
 * @example
 * ```ts
 * const hooks: WebRunHooks = { viewersChanged: (run) => {}, maxViewers: 500 };
 * ```
 */
export interface WebRunHooks {
  /** A viewer attached or left. */
  viewersChanged(run: WebRun): void;
  /** At most this many viewers at once. */
  readonly maxViewers: number;
}

/**
 * One run held by a {@link RunRegistry}: its id, the command shown on the page, when it started,
 * the {@link RunStream} its viewers follow, and the file its full log is spooled to. Viewers
 * attach with {@link follow}; {@link cancel} ends it early and records who cancelled.
 *
 * @example
 * ```ts
 * import { exec } from 'sluice';
 * import { RunRegistry } from 'sluice/web';
 *
 * const registry = new RunRegistry();
 * const run = registry.start(exec('make', ['-j8'], { reject: false }), { command: 'make -j8' });
 * createServer((req, res) => run.follow(req, res)).listen(8080); // GET: SSE with resume
 * run.cancel('api'); // kills make's process group; viewers see `{ reason: 'cancelled', by: 'api' }`
 * ```
 */
export class WebRun {
  /** The run's id (in its URLs). */
  readonly id: string;
  /** The command, as shown on the page. */
  readonly command: string;
  /** When it started, on the registry's scheduler clock (ms). */
  readonly startedAt: number;
  /** What viewers follow. */
  readonly stream: RunStream;
  /** The full log, unless the registry keeps none. */
  readonly log: RunLogFile | undefined;
  readonly #hooks: WebRunHooks;
  #viewers = 0;
  #endedAt: number | undefined;
  #freed = false;

  constructor(
    info: { id: string; command: string; startedAt: number },
    stream: RunStream,
    log: RunLogFile | undefined,
    hooks: WebRunHooks,
  ) {
    this.id = info.id;
    this.command = info.command;
    this.startedAt = info.startedAt;
    this.stream = stream;
    this.log = log;
    this.#hooks = hooks;
  }

  /** Viewers attached right now. */
  get viewers(): number {
    return this.#viewers;
  }

  /** Whether the run has ended. */
  get ended(): boolean {
    return this.stream.ended;
  }

  /** When the registry saw it end (scheduler clock, ms), or `undefined`. */
  get endedAt(): number | undefined {
    return this.#endedAt;
  }

  /** Whether the registry has let it go (its viewers were dropped, its log deleted). */
  get freed(): boolean {
    return this.#freed;
  }

  /**
   * Ends the run early: its source is unsubscribed (an `exec` source kills its process group),
   * then every viewer gets the final `{ kind: 'end', metadata: { reason: 'cancelled', by } }`.
   * Returns `false` if it had already ended.
   */
  cancel(by = 'api'): boolean {
    return this.stream.cancel('cancelled', { by });
  }

  /**
   * Serves one SSE viewer on a `node:http` response: `GET`, resuming after `Last-Event-ID` (or
   * `?lastEventId=`). Answers `204` when nothing follows that event, `400` for a bad id, `429`
   * past `maxViewers`. The caller checks access first (see `createWebGuard`).
   */
  follow(req: IncomingMessage, res: ServerResponse): void {
    let lastEventId: number | undefined;
    try {
      lastEventId = readLastEventId(req.headers['last-event-id'] as string | undefined, req.url);
    } catch (error) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end((error as Error).message);
      return;
    }
    if (this.#viewers >= this.#hooks.maxViewers) {
      const error = new RunLimitError({ limit: 'maxViewers', max: this.#hooks.maxViewers });
      res.writeHead(429, { 'content-type': 'text/plain; charset=utf-8' }).end(error.message);
      return;
    }
    const result = this.stream.attach(() => {
      this.#viewers += 1;
      res.once('close', () => {
        this.#viewers -= 1;
        this.#hooks.viewersChanged(this);
      });
      this.#hooks.viewersChanged(this);
      return nodeResponseSink(res);
    }, lastEventId);
    if (result.status !== 200) {
      res.writeHead(result.status, { 'content-type': 'text/plain; charset=utf-8' }).end(result.message);
    }
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
