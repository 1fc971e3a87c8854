import { type Observable, Subscriber, type Subscription } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import { subscribeWithDemand, Valve } from '../../core/demand.js';
import { failure, type HostcallOutcome, streamChunk } from '../protocol/hostcall-outcome.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { MacrotaskScheduler } from '../scheduler/macrotask-scheduler.js';
import type { HostLogger } from './host-logger.js';

/**
 * How a streaming call is set up (see {@link openHostStream}).
 *
 * @example
 * ```ts
 * const config: HostStreamConfig = { extensionId: 'ext-a', callId: 'hc-1', scheduler, logger: console,
 *   bufferSize: 16, stallTimeoutMs: 30_000, onClosed: () => {} };
 * ```
 */
export interface HostStreamConfig {
  readonly extensionId: string;
  readonly callId: string;
  readonly scheduler: MacrotaskScheduler<HostcallOutcome>;
  readonly logger: HostLogger;
  /** Channel capacity: chunks between the producer and their delivery (`buffer_size`). */
  readonly bufferSize: number;
  /** How long the channel may stay full before the stream is cancelled; 0 disables (`stall_timeout_ms`). */
  readonly stallTimeoutMs: number;
  /** Called once, when the stream's last outcome has been enqueued. */
  readonly onClosed: () => void;
}

/**
 * Why a stream was cancelled (cancelStream, stall, unload).
 *
 * @example
 * ```ts
 * stream.cancel('unloaded');
 * ```
 */
export type CancelReason = 'cancelled' | 'stalled' | 'unloaded';

/**
 * A live streaming call on the host side: its channel, its producer, its counters.
 *
 * @example
 * ```ts
 * const stream = host.stream('hc-1');
 * if (stream?.paused) console.log(`${stream.channelled} chunks wait for a pull`);
 * ```
 */
export interface HostStream {
  readonly extensionId: string;
  readonly callId: string;
  /** Chunks produced and not yet moved to the scheduler queue. */
  readonly channelled: number;
  /** Chunks in the scheduler queue, not yet delivered. */
  readonly queued: number;
  /** Chunks the extension asked for that the producer has not supplied yet (`Infinity` when flowing). */
  readonly credit: number;
  /** Whether the producer is paused (channelled + queued ≥ buffer size). */
  readonly paused: boolean;
  /** Whether the last outcome has been enqueued. */
  readonly closed: boolean;
  /** How it ended: `'final'`, `'error'`, `'overflow'` or a {@link CancelReason}; `undefined` while open. */
  readonly endReason: CancelReason | 'final' | 'error' | 'overflow' | undefined;
  /** Starts the producer (once). */
  start(producer: Observable<ChunkEvent<JsonValue>>): void;
  /** The extension asks for `count` more chunks (`Infinity`: as fast as they come). */
  pull(count: number): void;
  /** Stops the producer, drops the channel, enqueues the null final chunk. No-op once closed. */
  cancel(reason: CancelReason): void;
}

/** A producer may overshoot a pause by what it had in hand (one read split into lines); past this, it is broken. */
const OVERSHOOT_FACTOR = 64;
const MIN_OVERFLOW_LIMIT = 65_536;

type Item =
  | { readonly type: 'chunk'; readonly chunk: JsonValue; readonly isFinal: boolean }
  | { readonly type: 'error'; readonly code: string; readonly message: string };

/**
 * Opens the host side of one streaming hostcall: producer → bounded channel → scheduler queue →
 * delivery to the extension (seed 002, "Backpressure Model"). The model, exactly:
 *
 * - **Channel**: chunks the producer emitted, in order, not yet in the scheduler queue. A chunk
 *   moves to the queue only against the extension's **credit** (`pull(n)`; an `AsyncIterable`
 *   consumer pulls one per `next()`, a plain subscriber pulls `Infinity`). The per-stream
 *   `sequence` and the global `seq` are both taken at that move, so they stay contiguous even
 *   when a cancel drops the channel. Terminal items (a final chunk, the null sentinel, an error)
 *   need no credit: they move as soon as everything before them has.
 * - **Capacity**: `channelled + queued ≤ bufferSize`, where `queued` counts chunks in the queue
 *   not yet delivered. A slot frees when its chunk is **delivered** (the tick that hands it to
 *   the extension). At capacity the producer's `Valve` is paused; a producer that cannot stop at
 *   once (a pipe read already split into lines) may overshoot, and the overshoot waits in the
 *   channel, counted.
 * - **Stall**: a timer of `stallTimeoutMs` starts when the stream reaches capacity and is
 *   cleared when a slot frees; on expiry the stream is cancelled with reason `stalled` and the
 *   logger warns "Stream stalled: JS consumer did not pull for 30s" (the seconds from the ms).
 * - **Cancel** (`cancelStream`, stall, unload): unsubscribe the producer first (that kills the
 *   process group / aborts the request), drop the channel (including an error or final chunk
 *   still in it), then enqueue `StreamChunk { sequence: N, chunk: null, isFinal: true }`.
 *   Chunks already queued are still delivered, before it. Exactly one final outcome, always.
 * - **Overflow**: a producer that ignores the pause entirely (a synchronous source) is cut off
 *   when `channelled + queued` reaches `max(64 × bufferSize, 65536)`: it is unsubscribed and the
 *   stream ends with `Error { code: 'BUFFER_OVERFLOW' }` (the chunks already queued come first).
 * - **End**: a final event from the producer is a final chunk; completing without one appends
 *   the null sentinel; an error appends `Error { code, message }` — each after the chunks
 *   before it, and nothing after it.
 *
 * @example
 * ```ts
 * const stream = openHostStream({ extensionId: 'ext-a', callId: 'hc-1', scheduler, logger,
 *   bufferSize: 16, stallTimeoutMs: 30_000, onClosed: () => {} });
 * stream.start(producer$);
 * stream.pull(Infinity);
 * ```
 */
export function openHostStream(config: HostStreamConfig): HostStream {
  const { extensionId, callId, scheduler, logger, bufferSize, stallTimeoutMs } = config;
  const overflowLimit = Math.max(bufferSize * OVERSHOOT_FACTOR, MIN_OVERFLOW_LIMIT);
  const valve = new Valve();
  const channel: Item[] = [];
  let queued = 0;
  let credit = 0;
  let sequence = 0;
  let closed = false;
  let endReason: HostStream['endReason'];
  let producerDone = false;
  let started = false;
  let subscription: Subscription | undefined;
  let stallTimer: Subscription | undefined;

  const stopStallTimer = (): void => {
    stallTimer?.unsubscribe();
    stallTimer = undefined;
  };
  const stopProducer = (): void => {
    producerDone = true;
    subscription?.unsubscribe();
  };
  const close = (outcome: HostcallOutcome, reason: NonNullable<HostStream['endReason']>): void => {
    closed = true;
    endReason = reason;
    channel.length = 0;
    stopStallTimer();
    stopProducer();
    scheduler.enqueue(extensionId, callId, outcome);
    config.onClosed();
  };
  const onStall = (): void => {
    stallTimer = undefined;
    logger.warn(`Stream stalled: JS consumer did not pull for ${stallTimeoutMs / 1000}s`, {
      extensionId,
      callId,
      stallTimeoutMs,
    });
    stream.cancel('stalled');
  };
  const updatePressure = (): void => {
    if (closed) return;
    if (channel.length + queued >= bufferSize) {
      valve.pause();
      if (stallTimeoutMs > 0 && stallTimer === undefined)
        stallTimer = scheduler.setTimer(stallTimeoutMs, onStall);
    } else {
      stopStallTimer();
      valve.resume();
    }
  };
  const release = (): void => {
    queued -= 1;
    updatePressure();
  };
  const pump = (): void => {
    while (!closed && channel.length > 0) {
      const item = channel[0] as Item;
      if (item.type === 'error') {
        close(failure(item.code, item.message), 'error');
        return;
      }
      if (item.isFinal) {
        close(streamChunk(sequence, item.chunk, true), 'final');
        return;
      }
      if (credit <= 0) return;
      channel.shift();
      credit -= 1;
      queued += 1;
      scheduler.enqueue(extensionId, callId, streamChunk(sequence, item.chunk, false), release);
      sequence += 1;
    }
  };
  const accept = (item: Item): void => {
    if (closed || producerDone) return;
    if (item.type === 'error' || item.isFinal) producerDone = true;
    if (channel.length + queued >= overflowLimit) {
      const message = `The producer of \`${callId}\` ignored backpressure: ${overflowLimit} chunks undelivered`;
      close(failure('BUFFER_OVERFLOW', message), 'overflow');
      return;
    }
    channel.push(item);
    // The producer is done once it gave its last item: stop it now (a synchronous source would go on).
    if (producerDone) subscription?.unsubscribe();
    pump();
    updatePressure();
  };

  const stream: HostStream = {
    extensionId,
    callId,
    get channelled() {
      return channel.length;
    },
    get queued() {
      return queued;
    },
    get credit() {
      return credit;
    },
    get paused() {
      return valve.paused;
    },
    get closed() {
      return closed;
    },
    get endReason() {
      return endReason;
    },
    start(producer) {
      if (started || closed) return;
      started = true;
      // Our own Subscriber, known before subscribing: a synchronous producer sees it closed at once.
      const subscriber = new Subscriber<ChunkEvent<JsonValue>>({
        next: (event) => accept({ type: 'chunk', chunk: event.content, isFinal: event.isFinal }),
        error: (error: unknown) => accept({ type: 'error', ...describeError(error) }),
        complete: () => accept({ type: 'chunk', chunk: null, isFinal: true }),
      });
      subscription = subscriber;
      subscribeWithDemand(valve, () => producer.subscribe(subscriber));
    },
    pull(count) {
      if (closed) return;
      credit += count;
      pump();
    },
    cancel(reason) {
      if (closed) return;
      close(streamChunk(sequence, null, true), reason);
    },
  };
  return stream;
}

function describeError(error: unknown): { code: string; message: string } {
  const record = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const code = typeof record.code === 'string' && record.code !== '' ? record.code : 'HOSTCALL_FAILED';
  const message = typeof record.message === 'string' ? record.message : String(error);
  return { code, message };
}
