import { Subscription } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import { optionError } from '../../core/option-error.js';
import { Credit } from '../../core/queue/credit.js';
import { DemandQueue } from '../../core/queue/demand-queue.js';
import { InFlight } from '../../core/queue/in-flight.js';
import { subscribeWithDemand } from '../../core/subscribe-with-demand.js';
import { failure, type HostcallOutcome, streamChunk } from '../protocol/hostcall-outcome.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { HostStream } from './host-stream.js';
import type { HostStreamConfig } from './host-stream-config.js';
import { overflowLimit as limitFor } from './overflow-limit.js';
import { StallTimer } from './stall-timer.js';
import { toFailure } from './to-failure.js';

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
 * delivery to the extension (docs/protocol.md, "The bounded channel"). The channel is a
 * {@link DemandQueue} whose credit is the extension's pulls. The model, exactly:
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
 * - **Invalid pull**: a count that is not a positive integer or `Infinity` (0, negative,
 *   fractional, `NaN`, not a number) ends the stream like an overflow, with
 *   `Error { code: 'INVALID_REQUEST' }` naming the count (as Reactive Streams' §3.9 does for
 *   `request(n ≤ 0)`): credit never goes wrong silently.
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
  const overflowLimit = limitFor(bufferSize);
  let sequence = 0;
  let closed = false;
  let endReason: HostStream['endReason'];
  let started = false;
  /** The producer's last item, once it gave it (it waits in the channel behind the chunks). */
  let ending: Ending | undefined;
  let subscription: Subscription | undefined;
  const stall = new StallTimer(scheduler, stallTimeoutMs, () => {
    logger.warn(`Stream stalled: JS consumer did not pull for ${stallTimeoutMs / 1000}s`, {
      extensionId,
      callId,
      stallTimeoutMs,
    });
    stream.cancel('stalled');
  });
  // The channel: chunks wait here for credit; a moved chunk counts (in flight) until delivered.
  // Capacity `bufferSize` with no hysteresis: the producer resumes as soon as a slot frees.
  const credit = new Credit();
  const inFlight = new InFlight();
  const release = (): void => inFlight.release(1);
  const channel = new DemandQueue<JsonValue>(
    {
      highWater: bufferSize,
      deliver: (chunk) => {
        scheduler.enqueue(extensionId, callId, streamChunk(sequence, chunk, false), release);
        sequence += 1;
      },
      finish: () => {
        const last = ending as Ending;
        if (last.type === 'error') close(last.outcome, 'error');
        else close(streamChunk(sequence, last.chunk, true), 'final');
      },
    },
    credit,
    inFlight,
  );
  /** A producer that ignores the pause is cut off once `overflowLimit` chunks are undelivered. */
  const push = (chunk: JsonValue): void => {
    const waiting = channel.size;
    channel.push(chunk);
    // Only a chunk that had to wait counts: one handed out at once was asked for.
    if (closed || channel.size <= waiting || channel.size + inFlight.held <= overflowLimit) return;
    const message = `The producer of \`${callId}\` ignored backpressure: ${overflowLimit} chunks undelivered`;
    close(failure('BUFFER_OVERFLOW', message), 'overflow');
  };
  const stopStall = channel.upstream.onChange((paused) => (paused ? stall.start() : stall.stop()));
  const close = (outcome: HostcallOutcome, reason: NonNullable<HostStream['endReason']>): void => {
    if (closed) return;
    closed = true;
    endReason = reason;
    channel.close();
    stopStall();
    stall.dispose();
    subscription?.unsubscribe();
    scheduler.enqueue(extensionId, callId, outcome);
    config.onClosed();
  };
  /** Takes the producer's ending into the channel: it follows the chunks, needing no credit. */
  const end = (last: Ending): void => {
    if (closed || ending !== undefined) return;
    ending = last;
    // The producer is done once it gave its last item: stop it now (a synchronous source would go on).
    subscription?.unsubscribe();
    channel.end({ error: false });
  };

  const stream: HostStream = {
    extensionId,
    callId,
    get channelled() {
      return closed ? 0 : channel.size + (ending === undefined ? 0 : 1);
    },
    get queued() {
      return inFlight.held;
    },
    get credit() {
      return credit.count;
    },
    get paused() {
      return channel.upstream.paused;
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
      // Held before subscribing: a synchronous producer sees it closed at once.
      subscription = new Subscription();
      subscribeWithDemand(
        producer,
        channel.upstream,
        {
          next: (event: ChunkEvent<JsonValue>) => {
            // The channel ignores what comes after its end (and after a close) by itself.
            if (event.isFinal) end({ type: 'final', chunk: event.content });
            else push(event.content);
          },
          error: (error: unknown) => end({ type: 'error', outcome: toFailure(error) }),
          complete: () => end({ type: 'final', chunk: null }),
        },
        subscription,
      );
    },
    pull(count) {
      if (closed) return;
      if (isCredit(count)) credit.request(count);
      else close(failure('INVALID_REQUEST', invalidPullMessage(callId, count)), 'error');
    },
    cancel(reason) {
      if (!closed) close(streamChunk(sequence, null, true), reason);
    },
  };
  return stream;
}
