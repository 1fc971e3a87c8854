import { type Observable, type Subscriber, Subscription } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import type { Valve } from '../../core/demand.js';
import { finalBeforeComplete } from '../../core/errors/sequence-error.js';
import { optionError } from '../../core/option-error.js';
import { DemandQueue, type DemandQueueOptions } from '../../core/queue/demand-queue.js';
import { InFlight } from '../../core/queue/queue-outlet.js';
import { StallClock } from '../../core/stall-clock.js';
import {
  type DirectSink,
  ObserverSubscriber,
  offerDirectSink,
  subscribeWithDemand,
} from '../../core/subscriber-chain.js';
import { failure, type HostcallOutcome, streamChunk, toFailure } from '../protocol/hostcall-outcome.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { MacrotaskScheduler } from '../scheduler/macrotask-scheduler.js';
import type { CancelReason, HostLogger, HostStream } from './host.js';

/** The producer's last item: a final chunk (`null`: the sentinel) or an error. */
type Ending =
  | { readonly type: 'final'; readonly chunk: JsonValue }
  | { readonly type: 'error'; readonly outcome: HostcallOutcome };

/** Whether a pull's count is credit: a positive integer, or `Infinity` (flowing). */
const isCredit = (count: unknown): count is number =>
  count === Number.POSITIVE_INFINITY || (Number.isSafeInteger(count) && (count as number) > 0);

/** "Invalid pull for `hc-1`: Expected the `count` argument to be …, got `0` (number)". */
const invalidPullMessage = (callId: string, count: unknown): string =>
  `Invalid pull for \`${callId}\`: ${optionError('count', 'a positive integer or Infinity', count, 'argument').message}`;

/**
 * Opens the host side of one streaming hostcall: producer → bounded channel → scheduler queue →
 * delivery to the extension. The channel is a {@link DemandQueue} whose outlet is the extension's
 * credit; its channel, capacity, stall, cancel, overflow, end and invalid-pull rules are
 * docs/protocol.md's ("The bounded channel", "Stall", "Cancel", "Composed runs").
 */
export function openHostStream(config: HostStreamConfig): HostStream {
  return new ChannelledHostStream(config);
}

/**
 * One streaming hostcall's host side, also its channel's options and its producer's direct sink
 * (docs/performance.md, "One call target per call site"): a member named like another of
 * `DemandQueueOptions` (`lowWater`, `store`) would configure the channel.
 */
class ChannelledHostStream
  implements HostStream, DemandQueueOptions<JsonValue>, DirectSink<ChunkEvent<JsonValue>>
{
  readonly extensionId: string;
  readonly callId: string;
  private readonly config: HostStreamConfig;
  private readonly overflowLimit: number;
  private readonly stall: StallClock;
  /** The extension's credit and the chunks in the scheduler queue, not yet delivered. */
  private readonly inFlight = new InFlight(0);
  /** Chunks wait here for credit; a moved chunk counts (in flight) until delivered. */
  private readonly channel: DemandQueue<JsonValue>;
  private readonly stopStall: () => void;
  private sequence = 0;
  private isClosed = false;
  private reason: HostStream['endReason'];
  private started = false;
  /** The producer's last item, once it gave it (it waits in the channel behind the chunks). */
  private ending: Ending | undefined;
  /** The producer's final event, until the producer completes. */
  private held: Ending | undefined;
  private subscription: Subscription | undefined;

  constructor(config: HostStreamConfig) {
    this.config = config;
    this.extensionId = config.extensionId;
    this.callId = config.callId;
    this.overflowLimit = overflowLimit(config.bufferSize);
    this.stall = new StallClock(config.scheduler, config.stallTimeoutMs, () => this.stalled());
    this.channel = new DemandQueue<JsonValue>(this, this.inFlight);
    this.stopStall = this.channel.producerValve.onChange((paused) =>
      paused ? this.stall.start() : this.stall.stop(),
    );
    // Written a second time (docs/performance.md, "Code that survives the end of a stream").
    this.isClosed = false;
    this.reason = undefined;
    this.ending = undefined;
    this.held = undefined;
  }

  /** The channel's capacity (`bufferSize`, with no hysteresis: the producer resumes as soon as a slot frees). */
  get highWater(): number {
    return this.config.bufferSize;
  }

  /** The channel's valve: what the producer's direct `push` follows. */
  get demand(): Valve {
    return this.channel.producerValve;
  }

  get channelled(): number {
    return this.isClosed === true ? 0 : this.channel.size + (this.ending === undefined ? 0 : 1);
  }

  get queued(): number {
    return this.inFlight.held;
  }

  get credit(): number {
    return this.inFlight.count;
  }

  get paused(): boolean {
    return this.channel.producerValve.paused;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get endReason(): HostStream['endReason'] {
    return this.reason;
  }

  start(producer: Observable<ChunkEvent<JsonValue>>): void {
    if (this.started === true || this.isClosed === true) return;
    this.started = true;
    // Held before subscribing: a synchronous producer sees it closed at once.
    this.subscription = new Subscription();
    const subscriber = new ObserverSubscriber<ChunkEvent<JsonValue>>({
      next: (event) => this.take(event, true),
      error: (error: unknown) => this.end({ type: 'error', outcome: toFailure(error) }),
      complete: () => this.end(this.held ?? { type: 'final', chunk: null }),
    });
    // A producer that pushes into the channel itself (`exec` behind `mapDirect`) leaves the rest of
    // a read in the channel, counted and not checked for overflow (docs/performance.md, "A whole
    // read at a time").
    offerDirectSink<Subscriber<ChunkEvent<JsonValue>>, ChunkEvent<JsonValue>>(subscriber, this);
    subscribeWithDemand(producer, this.channel.producerValve, subscriber, this.subscription);
  }

  pull(count: number): void {
    if (this.isClosed === true) return;
    if (isCredit(count)) this.inFlight.request(count);
    else this.close(failure('INVALID_REQUEST', invalidPullMessage(this.callId, count)), 'error');
  }

  cancel(reason: CancelReason): void {
    if (this.isClosed !== true) this.close(streamChunk(this.sequence, null, true), reason);
  }

  /** The producer's direct push: a chunk into the channel (see `start`). */
  push(event: ChunkEvent<JsonValue>): void {
    this.take(event, false);
  }

  /** The channel's `deliver`: a chunk moves to the scheduler queue, taking the next sequence. */
  deliver(chunk: JsonValue): void {
    const { scheduler, extensionId, callId } = this.config;
    scheduler.enqueue(extensionId, callId, streamChunk(this.sequence, chunk, false), this.release);
    this.sequence += 1;
  }

  /** The channel's `finish`: the producer's ending moves once every chunk before it has. */
  finish(): void {
    const last = this.ending as Ending;
    if (last.type === 'error') this.close(last.outcome, 'error');
    else this.close(streamChunk(this.sequence, last.chunk, true), 'final');
  }

  /**
   * A delivered chunk frees its slot; the stall clock starts over. The queue need not be told:
   * the valve stays paused while the channel alone holds a full buffer.
   */
  private readonly release = (): void => {
    this.inFlight.release(1, this.channel.size < this.config.bufferSize);
    this.stall.restart();
  };

  /** A chunk goes into the channel; a final event waits for the producer to complete. */
  private take(event: ChunkEvent<JsonValue>, checkOverflow: boolean): void {
    if (this.held !== undefined) this.refuseAfterFinal(event);
    else if (event.isFinal === true) this.held = { type: 'final', chunk: event.content };
    // The channel ignores what comes after its end (and after a close) by itself.
    else if (checkOverflow) this.admit(event.content);
    else this.channel.push(event.content);
  }

  /** An event after the producer's final event: the stream ends with `STREAM_SEQUENCE`. */
  private refuseAfterFinal(event: ChunkEvent<JsonValue>): void {
    this.end({ type: 'error', outcome: toFailure(finalBeforeComplete(event.sequence)) });
  }

  /** A producer that ignores the pause is cut off once `overflowLimit` chunks are undelivered. */
  private admit(chunk: JsonValue): void {
    const { channel } = this;
    const waiting = channel.size;
    channel.push(chunk);
    // Only a chunk that had to wait counts: one handed out at once was asked for.
    if (
      this.isClosed === true ||
      channel.size <= waiting ||
      channel.size + this.inFlight.held <= this.overflowLimit
    )
      return;
    const message = `The producer of \`${this.callId}\` ignored backpressure: ${this.overflowLimit} chunks undelivered`;
    this.close(failure('BUFFER_OVERFLOW', message), 'overflow');
  }

  /** Takes the producer's ending into the channel: it follows the chunks, needing no credit. */
  private end(last: Ending): void {
    if (this.isClosed === true || this.ending !== undefined) return;
    this.ending = last;
    // The producer is done once it gave its last item: stop it now (a synchronous source would go on).
    this.subscription?.unsubscribe();
    this.channel.end({ error: false });
  }

  private stalled(): void {
    const { logger, extensionId, callId, stallTimeoutMs } = this.config;
    logger.warn(`Stream stalled: JS consumer did not pull for ${stallTimeoutMs / 1000}s`, {
      extensionId,
      callId,
      stallTimeoutMs,
    });
    this.cancel('stalled');
  }

  /** Ends the stream with its one final outcome: stops the producer and drops the channel first. */
  private close(outcome: HostcallOutcome, reason: NonNullable<HostStream['endReason']>): void {
    if (this.isClosed === true) return;
    this.isClosed = true;
    this.reason = reason;
    this.channel.close();
    this.stopStall();
    this.stall.dispose();
    this.subscription?.unsubscribe();
    this.config.scheduler.enqueue(this.extensionId, this.callId, outcome);
    this.config.onClosed();
  }
}

interface HostStreamConfig {
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
 * How many undelivered chunks a stream of `bufferSize` tolerates before it ends with
 * `BUFFER_OVERFLOW` (docs/protocol.md, "The bounded channel"; marbles/HOSTCALL.md states it too).
 */
export function overflowLimit(bufferSize: number): number {
  return Math.max(bufferSize * 64, 65_536);
}
