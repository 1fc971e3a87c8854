import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Observable } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import { MemoryRunStore } from '../memory-run-store.js';
import { RunOutlet } from '../run-outlet.js';
import { publishRun } from '../to-run-store.js';
import { type ReplayBounds, ReplayLog } from './replay-log.js';
import { SseClient, type SseClientConfig } from './sse-client.js';
import { acceptSseGet, readLastEventId, sseResumeRefusal } from './sse-resume.js';
import { nodeResponseSink, readableStreamSink, type SseSink } from './sse-sink.js';

/** The checked settings of an {@link SseStream}: `toServerSentEvents` fills in the defaults. */
export interface SseStreamConfig extends SseClientConfig {
  readonly replay: ReplayBounds;
}

/** `200` with the attached client; `204`: it has the final event already; `400`: `Last-Event-ID` is ahead. */
export type SseAttachResult =
  | { readonly status: 200; readonly client: SseClient }
  | { readonly status: 204 | 400; readonly message: string };

/**
 * One sequenced stream served over Server-Sent Events to any number of clients (docs/sse.md):
 * what `toServerSentEvents` returns. The source is subscribed once (first client, or
 * {@link start}) as the one run of a private `MemoryRunStore`; each client reads it after its own
 * `Last-Event-ID`, evicted events coming as one `gap` event. The producer pauses only while the
 * log is full and *every* client needs its oldest event; a client not draining for
 * `stallTimeoutMs` is dropped. Detach is not cancel: {@link cancel} (or `DELETE`) stops the
 * producer and appends the final `end` sentinel. A source error reaches clients as `failure`.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { exec } from 'sluice/sources';
 * import { toServerSentEvents } from 'sluice/adapters';
 *
 * const run = toServerSentEvents(exec('make', ['test'], { reject: false }), { replay: { maxEvents: 5000 } });
 * createServer((req, res) => run.serve(req, res)).listen(8080); // GET follows, DELETE cancels
 * ```
 */
export class SseStream {
  readonly #source: Observable<ChunkEvent<unknown>>;
  readonly #config: SseStreamConfig;
  readonly #store: MemoryRunStore;
  readonly #clients = new Set<SseClient>();
  #run: RunOutlet | undefined;
  #started = false;
  #empty: ReplayLog | undefined;

  constructor(source: Observable<ChunkEvent<unknown>>, config: SseStreamConfig) {
    this.#source = source;
    this.#config = config;
    this.#store = new MemoryRunStore({
      ...config.replay,
      retainMs: Number.MAX_SAFE_INTEGER, // the run lives as long as this stream
      scheduler: config.scheduler,
    });
  }

  /** The replay log (read-only use). */
  get log(): ReplayLog {
    const log = this.#store.log(RUN);
    if (log !== undefined) return log;
    this.#empty ??= new ReplayLog(this.#config.replay);
    return this.#empty;
  }

  get clients(): number {
    return this.#clients.size;
  }

  /** Whether the producer is paused by the clients right now. */
  get paused(): boolean {
    return this.#run?.demand.paused ?? false;
  }

  /** Whether the stream has ended (final event or failure in the log). */
  get ended(): boolean {
    return this.log.ended;
  }

  /** Subscribes the producer now, if not yet (otherwise the first client does). Returns `this`. */
  start(): this {
    if (this.#started) return this;
    this.#started = true;
    this.#source.pipe(publishRun(() => this.#open())).subscribe({ error: () => {} });
    return this;
  }

  /** Stops the producer, then appends the final sentinel (metadata `{ ...details, reason }`); `false` once ended. */
  cancel(reason = 'cancelled', details?: Readonly<Record<string, unknown>>): boolean {
    if (this.ended) return false;
    if (this.#started) void this.#store.cancel(RUN, reason, details);
    else {
      this.#started = true; // cancelled before anything subscribed it: the source never runs
      this.#open().end(reason, details);
    }
    return true;
  }

  /** Drops every client's connection without cancelling the run (they may reconnect and resume). */
  disconnectClients(): void {
    for (const client of [...this.#clients]) client.drop();
  }

  /** Attaches a client that resumes after `lastEventId` (`undefined`: from the start). */
  attach(sink: () => SseSink, lastEventId: number | undefined): SseAttachResult {
    this.start();
    const log = this.log;
    const refusal = sseResumeRefusal(
      { ended: log.ended, failed: log.failure !== undefined, next: log.next },
      lastEventId,
      'the stream',
    );
    if (refusal !== undefined) return refusal;
    const after = lastEventId ?? -1;
    const client = new SseClient(this.#store, RUN, sink(), after + 1, this.#config, (gone) =>
      this.#clients.delete(gone),
    );
    if (!client.closed) this.#clients.add(client);
    return { status: 200, client };
  }

  /** `GET` follows the stream (after `Last-Event-ID` or `?lastEventId=`), `DELETE` cancels it (`204`), else `405`. */
  serve(req: IncomingMessage, res: ServerResponse): void {
    const get = acceptSseGet(req, res, () => {
      this.cancel();
      res.writeHead(204).end();
    });
    if (get === undefined) return;
    const result = this.attach(() => nodeResponseSink(res), get.lastEventId);
    if (result.status !== 200)
      res.writeHead(result.status, { 'content-type': 'text/plain' }).end(result.message);
  }

  /** The fetch-style `GET` of {@link serve}: the body's `highWaterMark` (frames) is its backpressure. */
  toResponse(request?: Request, highWaterMark = 16): Response {
    let lastEventId: number | undefined;
    try {
      lastEventId = readLastEventId(request?.headers.get('last-event-id'), request?.url);
    } catch (error) {
      return new Response((error as Error).message, { status: 400 });
    }
    const { stream, sink } = readableStreamSink(highWaterMark);
    const result = this.attach(() => sink, lastEventId);
    if (result.status === 204) return new Response(null, { status: 204 });
    if (result.status !== 200) return new Response(result.message, { status: result.status });
    return new Response(stream, {
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
      },
    });
  }

  /** The stream's run (opened once: by the producer, or by a cancel before it). */
  #open(): RunOutlet {
    this.#run ??= new RunOutlet(this.#store, RUN);
    return this.#run;
  }
}

const RUN = 'stream';
