import type { SchedulerLike, Subscription } from 'rxjs';
import { encodeGap } from './encode-gap.js';
import { formatSseFrame } from './format-sse-frame.js';
import type { ReplayLog } from './replay-log.js';
import type { SseSink } from './sse-sink.js';

/**
 * Settings of one {@link SseClient}; an {@link SseStream} passes its own `SseStreamConfig`.
 *
 * @example
 * ```ts
 * import { asyncScheduler } from 'rxjs';
 * import { SseClient, type SseClientConfig } from 'sluice/adapters';
 *
 * const config: SseClientConfig = {
 *   heartbeatMs: 0, // no heartbeat
 *   stallTimeoutMs: 30_000,
 *   retryMs: undefined, // send no `retry:` line
 *   scheduler: asyncScheduler,
 * };
 * const client = new SseClient(log, sink, 0, config, () => {});
 * ```
 */
export interface SseClientConfig {
  /** A `:` comment every this many ms while the connection is open (`0` = none). */
  readonly heartbeatMs: number;
  /** A client whose sink stays un-drained this long is dropped (`0` = never). */
  readonly stallTimeoutMs: number;
  /** Sent first as `retry:` (the browser's reconnection delay), unless `undefined`. */
  readonly retryMs: number | undefined;
  /** The clock of the heartbeat and the stall timer. */
  readonly scheduler: SchedulerLike;
}

/**
 * One connection following a {@link ReplayLog}: it has its own cursor (the next sequence to
 * write) and its own pace. {@link pump} writes what the log holds past the cursor until the sink
 * says its buffer is full, then waits for the sink's drain. A cursor that the log has already
 * evicted becomes a `gap` frame, and the client goes on from the oldest retained event. After
 * the final event (or the failure frame) the response ends. A sink that does not drain within
 * `stallTimeoutMs` is destroyed (the client may reconnect with `Last-Event-ID`).
 *
 * Internal to `toServerSentEvents`; exported for tests and custom transports.
 *
 * @example
 * ```ts
 * const client = new SseClient(log, sink, 0, { heartbeatMs: 15_000, stallTimeoutMs: 30_000, retryMs: 1000, scheduler: asyncScheduler }, () => {});
 * client.pump(); // writes every retained event, then waits for more
 * ```
 */
export class SseClient {
  #cursor: number;
  #waiting = false;
  #closed = false;
  readonly #log: ReplayLog;
  readonly #sink: SseSink;
  readonly #config: SseClientConfig;
  readonly #onGone: (client: SseClient) => void;
  readonly #onDrained: () => void;
  readonly #stopListening: Array<() => void> = [];
  #heartbeat: Subscription | undefined;
  #stall: Subscription | undefined;

  constructor(
    log: ReplayLog,
    sink: SseSink,
    cursor: number,
    config: SseClientConfig,
    onGone: (client: SseClient) => void,
    onDrained: () => void = () => {},
  ) {
    this.#log = log;
    this.#sink = sink;
    this.#cursor = cursor;
    this.#config = config;
    this.#onGone = onGone;
    this.#onDrained = onDrained;
    this.#stopListening.push(
      sink.onDrain(() => this.#drained()),
      sink.onClose(() => this.#gone()),
    );
    if (config.retryMs !== undefined) this.#write(formatSseFrame({ retry: config.retryMs }));
    if (config.heartbeatMs > 0) {
      const every = config.heartbeatMs;
      const client = this;
      this.#heartbeat = config.scheduler.schedule(function () {
        if (!client.#waiting) client.#write(formatSseFrame({ comment: 'heartbeat' }));
        this.schedule(undefined, every);
      }, every);
    }
  }

  /** The next sequence this client will write. */
  get cursor(): number {
    return this.#cursor;
  }

  /** Whether this client is waiting for its sink to drain. */
  get waiting(): boolean {
    return this.#waiting;
  }

  /** Whether the connection is gone. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Writes what the log holds past the cursor, until caught up, ended, or the sink is full. */
  pump(): void {
    const log = this.#log;
    while (!this.#closed && !this.#waiting) {
      if (this.#cursor < log.oldest) {
        this.#write(encodeGap({ from: this.#cursor, to: log.oldest - 1 }));
        this.#cursor = log.oldest;
        continue;
      }
      const entry = log.get(this.#cursor);
      if (entry !== undefined) {
        this.#cursor += 1;
        this.#write(entry.frame);
        if (entry.isFinal) this.end();
        continue;
      }
      if (log.failure !== undefined && this.#cursor === log.next) {
        this.#write(log.failure);
        this.end();
      }
      return;
    }
  }

  /** Ends the response normally. */
  end(): void {
    if (this.#closed) return;
    this.#sink.end();
    this.#gone();
  }

  /** Drops the connection (the browser reconnects with `Last-Event-ID`). */
  drop(): void {
    if (this.#closed) return;
    this.#sink.destroy();
    this.#gone();
  }

  #write(text: string): void {
    if (this.#sink.write(text) || this.#closed) return;
    this.#waiting = true;
    const timeout = this.#config.stallTimeoutMs;
    if (timeout > 0 && this.#stall === undefined) {
      this.#stall = this.#config.scheduler.schedule(() => this.drop(), timeout);
    }
  }

  #drained(): void {
    if (!this.#waiting || this.#closed) return;
    this.#waiting = false;
    this.#stall?.unsubscribe();
    this.#stall = undefined;
    this.pump();
    this.#onDrained();
  }

  #gone(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#heartbeat?.unsubscribe();
    this.#stall?.unsubscribe();
    for (const stop of this.#stopListening.splice(0)) stop();
    this.#onGone(this);
  }
}
