import { type SchedulerLike, Subscription } from 'rxjs';
import { Valve } from '../../core/demand.js';
import { StallClock } from '../../core/stall-clock.js';
import { followRun } from '../follow-run.js';
import type { RunStore } from '../run-store.js';
import { formatSseFrame } from './format-sse-frame.js';
import { encodeChunkEvent, encodeFailure, encodeGap, encodeRunFailure } from './run-frames.js';
import type { SseSink } from './sse-sink.js';

/** Options of `runSseEndpoint` (the same meaning as in `toServerSentEvents`). */
export interface RunSseOptions {
  /** A `: heartbeat` comment this often on an open connection, in ms (`0` = none). Default `15_000`. */
  readonly heartbeatMs?: number;
  /** A client whose socket does not drain for this long is disconnected, in ms (`0` = never). Default `30_000`. */
  readonly stallTimeoutMs?: number;
  /** Sent first as `retry:` (the browser's reconnection delay), in ms. Default `1000`. */
  readonly retryMs?: number;
  /** The clock of heartbeats and stall timers. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/** Settings of one {@link SseClient}: the options of `runSseEndpoint`, checked (`retryMs` may be absent). */
export type SseClientConfig = Required<Omit<RunSseOptions, 'retryMs'>> & {
  readonly retryMs: number | undefined;
};

/**
 * The one SSE writer: a connection following a run after the client's `Last-Event-ID`, as frames
 * (events, a `gap`, a `failure`, then the end). While its sink is full the read is paused; a sink
 * not draining within `stallTimeoutMs` is destroyed (the client reconnects and resumes).
 */
export class SseClient {
  #cursor: number;
  #closed = false;
  readonly #sink: SseSink;
  readonly #onGone: (client: SseClient) => void;
  readonly #valve = new Valve();
  readonly #stopListening: Array<() => void> = [];
  #subscription: Subscription | undefined;
  #heartbeat: Subscription | undefined;
  readonly #stall: StallClock;

  constructor(
    store: RunStore,
    runId: string,
    sink: SseSink,
    cursor: number,
    config: SseClientConfig,
    onGone: (client: SseClient) => void,
  ) {
    this.#sink = sink;
    this.#cursor = cursor;
    this.#onGone = onGone;
    this.#stall = StallClock.on(config.scheduler, config.stallTimeoutMs, () => this.drop());
    this.#stopListening.push(
      sink.onDrain(() => this.#drained()),
      sink.onClose(() => this.#gone()),
    );
    if (config.retryMs !== undefined) this.#write(formatSseFrame({ retry: config.retryMs }));
    if (config.heartbeatMs > 0) {
      const every = config.heartbeatMs;
      const client = this;
      this.#heartbeat = config.scheduler.schedule(function () {
        if (!client.#valve.paused) client.#write(formatSseFrame({ comment: 'heartbeat' }));
        this.schedule(undefined, every);
      }, every);
    }
    const subscription = new Subscription();
    this.#subscription = subscription;
    if (this.#closed) return;
    followRun(
      store,
      runId,
      { after: cursor - 1, demand: this.#valve },
      {
        event: (event) => {
          this.#cursor = event.sequence + 1;
          this.#write(encodeChunkEvent(event));
        },
        // A store that keeps its events encoded gives their frames, consecutive from the cursor.
        frame: (frame) => {
          this.#cursor += 1;
          this.#write(frame);
        },
        gap: (gap) => {
          this.#write(encodeGap(gap));
          this.#cursor = gap.to + 1;
        },
        failure: (failure) => this.#write(encodeRunFailure(failure)),
        error: (error) => {
          this.#write(encodeFailure(error));
          this.end();
        },
        complete: () => this.end(),
      },
      subscription,
    );
    if (this.#closed) subscription.unsubscribe();
  }

  /** The next sequence this client will write. */
  get cursor(): number {
    return this.#cursor;
  }

  /** Whether this client is waiting for its sink to drain. */
  get waiting(): boolean {
    return this.#valve.paused;
  }

  get closed(): boolean {
    return this.#closed;
  }

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
    if (this.#closed || this.#sink.write(text)) return;
    this.#valve.pause();
    this.#stall.start();
  }

  #drained(): void {
    if (!this.#valve.paused || this.#closed) return;
    this.#stall.stop();
    this.#valve.resume();
  }

  #gone(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#heartbeat?.unsubscribe();
    this.#stall.dispose();
    for (const stop of this.#stopListening.splice(0)) stop();
    const subscription = this.#subscription;
    this.#subscription = undefined;
    subscription?.unsubscribe();
    this.#onGone(this);
  }
}
