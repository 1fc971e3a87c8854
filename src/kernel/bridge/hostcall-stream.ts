import { Observable, type Subscriber } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import { Valve } from '../../core/demand.js';
import { sequenceViolation } from '../../core/errors/sequence-error.js';
import { SluiceError } from '../../core/errors/sluice-error.js';
import { DemandQueue, halfWater, type QueueEnding } from '../../core/queue/demand-queue.js';
import { DemandGate } from '../../core/queue/queue-outlet.js';
import { RingQueue } from '../../core/queue/ring-queue.js';
import { demandOf } from '../../core/subscriber-chain.js';
import { type HostcallOutcome, type HostcallStreamChunk, streamChunk } from '../protocol/hostcall-outcome.js';
import type { JsonValue } from '../protocol/json-value.js';

/** What a {@link HostcallStream} needs from its bridge. */
export interface HostcallStreamLink {
  /** Ask the host for `count` more chunks (`Infinity`: flowing). */
  pull(count: number): void;
  /** Ask the host to cancel the stream (`cancelStream(callId)`). */
  cancel(): void;
  /** The stream will take no more outcomes (final chunk, error, sequence error): forget the call. */
  settled(): void;
  /** How many chunks a demand-driven subscriber keeps asked for (the call's `buffer_size`). */
  readonly prefetch: number;
}

/** One pending `next()` of the iterator. */
interface Waiter {
  readonly resolve: (result: IteratorResult<JsonValue, undefined>) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Resolves a waiting `next()`. Every waiter's `resolve` is a function of its own (one per
 * promise), so a call of it written where a chunk is delivered is specialized by V8 on the first
 * waiter it saw, and the whole delivery path compiled around it is thrown away at the next one
 * ("wrong call target"), then compiled again: in some first runs twice. Every waiter of every
 * stream is resolved through the one call here, which V8 soon sees with many targets and compiles
 * as a plain call (docs/performance.md, "One call for every waiter").
 */
function resolveWaiter(waiter: Waiter, result: IteratorResult<JsonValue, undefined>): void {
  waiter.resolve(result);
}

const DONE = Object.freeze({ value: undefined, done: true }) as IteratorResult<JsonValue, undefined>;

/**
 * The extension side of one streaming hostcall: both an `AsyncIterableIterator` of chunks and an
 * RxJS `Observable` of chunk events (one consumer, either way). For the iterator the chunks wait
 * in a ring, or go straight to a waiting `next()`; an Observable consumer gets a
 * {@link DemandQueue} gated by its demand, and what the host is asked for (credit,
 * docs/protocol.md) also follows that queue's valve.
 *
 * As an iterator: `next()` resolves with the next chunk, from what is already here or when it
 * arrives; the stream keeps up to `prefetch` chunks (the call's `buffer_size`) asked for ahead of
 * the consumer — asking again once half of them arrived — so a consumer that stops calling
 * `next()` stops the producer once that window is used up, and after `stall_timeout_ms` the host
 * cancels. A final `null` chunk ends iteration (`{ done: true }`); a final non-null chunk is
 * yielded, then iteration ends; an `Error` outcome rejects the `next()` after the chunks delivered
 * before it. `next()` calls made without awaiting are served in call order, each with its own
 * chunk. `return()` (a `break` in `for await`) cancels the stream on the host and ends the waiting
 * calls.
 *
 * As an Observable, subscribe gets `{ sequence, kind: 'chunk', content, isFinal }` events then
 * `complete`, or an error (a {@link SluiceError} with the outcome's `code`); unsubscribing cancels.
 * A plain subscriber makes the stream flow; a subscriber with a demand ({@link demandOf}) keeps
 * `prefetch` chunks asked for while the demand is not paused. A second consumer (another
 * subscriber, or an iterator after a subscriber and vice versa) fails with a `SluiceError` of code
 * `STREAM_CONSUMED`.
 *
 * Sequence numbers are checked as `checkSequence()` does: a stream that does not start at 0,
 * skips or reorders fails with a `SequenceError` (`STREAM_SEQUENCE`) and is cancelled.
 *
 * @example
 * ```ts
 * const stream = api.exec('make', ['build'], { stream: true });
 * for await (const line of stream) console.log(line);
 * // or: stream.subscribe((event) => console.log(event.sequence, event.content));
 * ```
 */
export class HostcallStream
  extends Observable<ChunkEvent<JsonValue>>
  implements AsyncIterableIterator<JsonValue, undefined>
{
  /** The call id of the hostcall. */
  readonly callId: string;
  readonly #link: HostcallStreamLink;
  /**
   * The chunks as they arrived (outcomes), for the iterator — and for whichever consumer comes,
   * until one does. The iterator takes from here directly: per chunk, one ring and its waiters,
   * not a demand-gated queue (docs/backpressure.md, "One queue").
   */
  readonly #chunks = new RingQueue<HostcallStreamChunk>();
  /** The ending behind {@link HostcallStream.#chunks}, handed to the `next()` after the last chunk. */
  #ending: QueueEnding | undefined;
  /** Pending `next()` calls, oldest first (only while no chunk waits). */
  readonly #waiters = new RingQueue<Waiter>();
  /** An Observable consumer's queue, made when it subscribes: its valve follows the consumer's demand. */
  #queue: DemandQueue<HostcallStreamChunk> | undefined;
  /**
   * The Observable consumer's demand as the queue's gate (mirrored). Closed while the subscriber
   * is being set up, so that what arrived before it waits until then.
   */
  readonly #gate = new Valve();
  #consumer: 'iterator' | 'observable' | undefined;
  #sink: Subscriber<ChunkEvent<JsonValue>> | undefined;
  #sinkDemandless = false;
  /** No more outcomes are taken (final chunk, error, sequence error, or released). */
  #settled = false;
  /** The consumer is gone or got everything: `next()` gives `done`. */
  #released = false;
  #expected = 0;
  /** Chunks asked of the host and not received yet. */
  #outstanding = 0;
  #flowing = false;

  constructor(callId: string, link: HostcallStreamLink) {
    super((subscriber) => (this as HostcallStream).#subscribe(subscriber));
    this.callId = callId;
    this.#link = link;
    // The fields the end of the stream writes, written a second time so that V8 does not take them
    // for constants (docs/performance.md, "Code that survives the end of a stream").
    this.#settled = false;
    this.#released = false;
    this.#ending = undefined;
  }

  /**
   * Hands the stream an outcome of its call (the bridge does, in delivery order). Internal.
   *
   * @example
   * ```ts
   * stream.deliver(streamChunk(0, 'line 1\n', false));
   * ```
   */
  deliver(outcome: HostcallOutcome): void {
    if (this.#settled === true) return;
    // The next chunk in order, the case of nearly every outcome, is all this method holds: it runs
    // for every chunk, inlined into the host's delivery, where its size counts (docs/performance.md,
    // "Smaller hot functions").
    if (outcome.type === 'streamChunk' && outcome.sequence === this.#expected) this.#accept(outcome);
    else this.#deliverOther(outcome);
  }

  /** An error, an answer that ignored `stream: true`, or a chunk out of sequence. */
  #deliverOther(outcome: HostcallOutcome): void {
    if (outcome.type === 'error') {
      this.#settle();
      this.#end({ error: true, reason: new SluiceError(outcome.code, outcome.message) });
      return;
    }
    if (outcome.type !== 'streamChunk') {
      // A kind that ignored `stream: true` answered once: its value is the one, final chunk.
      this.#accept(streamChunk(this.#expected, outcome.value, true));
      return;
    }
    this.#settle();
    // A released stream was cancelled when it was released.
    if (this.#released !== true) this.#link.cancel();
    this.#end({ error: true, reason: sequenceViolation(this.#expected, outcome.sequence, false) });
  }

  next(): Promise<IteratorResult<JsonValue, undefined>> {
    if (this.#consumer === 'observable') return Promise.reject(this.#consumed('an iterator'));
    this.#consumer = 'iterator';
    const chunks = this.#chunks;
    if (chunks.size > 0) {
      const event = chunks.shift() as HostcallStreamChunk;
      const end = this.#endsIteration(event);
      // More than half the window still asked for or here: nothing to ask (#topUp's first test).
      if (this.#outstanding + chunks.size <= this.#link.prefetch >> 1) this.#topUp();
      // The result is made at the call, not taken from a helper: V8 then sees that it is no
      // thenable and resolves it inline, rather than calling `Promise.resolve`'s builtin for every
      // chunk (docs/performance.md, "Fewer steps per chunk").
      return end ? Promise.resolve(DONE) : Promise.resolve({ value: event.chunk, done: false });
    }
    const ending = this.#ending;
    if (ending !== undefined) {
      this.#ending = undefined;
      this.#released = true;
      return ending.error ? Promise.reject(ending.reason) : Promise.resolve(DONE);
    }
    if (this.#released === true) return Promise.resolve(DONE);
    const pending = new Promise<IteratorResult<JsonValue, undefined>>((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
    });
    this.#topUp();
    return pending;
  }

  return(): Promise<IteratorResult<JsonValue, undefined>> {
    // The iterator was this stream's consumer, even if it never called `next()`: a subscriber
    // after it fails with STREAM_CONSUMED rather than getting what the host sends after the cancel.
    this.#consumer ??= 'iterator';
    this.#release();
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  #accept(event: HostcallStreamChunk): void {
    this.#expected = event.sequence + 1;
    if (event.isFinal === true) {
      this.#acceptFinal(event);
      return;
    }
    if (this.#outstanding > 0) this.#outstanding -= 1;
    // A chunk that waits here leaves the window as full as it was (one less asked for, one more
    // here), and the consumer's next `next()` looks at it. One handed straight out may leave it
    // half empty. The test is made here, where every stream's first chunk goes (to its first
    // `next()`), not on a count that comes low only now and then: a call V8 has not seen made when
    // it optimizes this path would throw that code away mid-stream (docs/performance.md, "One call
    // target per call site").
    if (this.#put(event)) this.#topUp();
  }

  /**
   * The final chunk: no more outcomes are taken, and the consumer gets it, then the end. A method
   * of its own: it comes once per stream, and `#accept` runs for every chunk.
   */
  #acceptFinal(event: HostcallStreamChunk): void {
    this.#settle();
    this.#put(event);
    this.#end({ error: false });
  }

  /**
   * A chunk for the consumer: to a waiting `next()`, else behind the others. Returns whether the
   * window may now have room to ask for more: the chunk went to a waiting `next()`, or into a
   * subscriber's queue (which may have handed it on).
   */
  #put(event: HostcallStreamChunk): boolean {
    if (this.#queue !== undefined) {
      this.#queue.push(event);
      return true;
    }
    if (this.#released === true) return false;
    const waiter = this.#waiters.shift();
    if (waiter === undefined) {
      this.#chunks.push(event);
      return false;
    }
    resolveWaiter(waiter, this.#toResult(event));
    return true;
  }

  /** The ending, after the chunks before it. */
  #end(ending: QueueEnding): void {
    if (this.#queue !== undefined) this.#queue.end(ending);
    else if (this.#chunks.size > 0) this.#ending = ending;
    // Waiting `next()` calls are settled even when the stream was released: a final null chunk
    // released it while handing `done` to the first of them.
    else if (this.#waiters.size > 0) this.#finishWaiters(ending);
    else if (this.#released !== true) this.#ending = ending;
  }

  /** Chunks here, waiting for the consumer. */
  #held(): number {
    return this.#queue === undefined ? this.#chunks.size : this.#queue.size;
  }

  /**
   * Asks the host for more while the consumer takes: up to `prefetch` chunks asked for or
   * waiting here, once at most half of them are (a pull per half window, not per chunk). An
   * Observable consumer's queue also needs its valve flowing (the consumer's demand).
   */
  #topUp(): void {
    if (this.#settled === true || this.#released === true || this.#consumer === undefined) return;
    if (this.#flowing === true) return;
    const queue = this.#queue;
    if (queue !== undefined) {
      if (this.#sinkDemandless === true) {
        this.#flowing = true;
        this.#outstanding = Number.POSITIVE_INFINITY;
        this.#link.pull(Number.POSITIVE_INFINITY);
        return;
      }
      if (queue.producerValve.paused === true || this.#gate.paused === true) return;
    }
    const prefetch = this.#link.prefetch;
    const waiting = this.#waiters.size;
    const held = this.#outstanding + this.#held();
    if (held > prefetch >> 1 && !(held === 0 && waiting > 0)) return;
    const count = Math.max(prefetch - held, waiting - held, 0);
    if (count === 0) return;
    this.#outstanding += count;
    this.#link.pull(count);
  }

  #deliverOut(event: HostcallStreamChunk): void {
    this.#sink?.next({
      sequence: event.sequence,
      kind: 'chunk',
      content: event.chunk,
      isFinal: event.isFinal,
    });
  }

  #finishOut(ending: QueueEnding): void {
    const sink = this.#sink;
    if (sink === undefined) return;
    if (ending.error) sink.error(ending.reason);
    else sink.complete();
  }

  /** The first waiter gets the ending, the others `done`. */
  #finishWaiters(ending: QueueEnding): void {
    const first = this.#waiters.shift() as Waiter;
    this.#released = true;
    if (ending.error) first.reject(ending.reason);
    else resolveWaiter(first, DONE);
    this.#endWaiters();
  }

  /** Every waiting `next()` gets `done`. */
  #endWaiters(): void {
    for (let waiter = this.#waiters.shift(); waiter; waiter = this.#waiters.shift())
      resolveWaiter(waiter, DONE);
  }

  #toResult(event: HostcallStreamChunk): IteratorResult<JsonValue, undefined> {
    return this.#endsIteration(event) ? DONE : { value: event.chunk, done: false };
  }

  /** Whether `event` ends iteration (the final `null` chunk); if it does, releases the stream. */
  #endsIteration(event: HostcallStreamChunk): boolean {
    if (event.isFinal !== true || event.chunk !== null) return false;
    this.#released = true;
    return true;
  }

  #release(): void {
    if (this.#released === true && this.#waiters.size === 0) {
      this.#drop();
      return;
    }
    this.#released = true;
    if (this.#settled !== true) this.#link.cancel();
    this.#drop();
    this.#endWaiters();
  }

  /** Drops what waits for the consumer: nothing more goes out. */
  #drop(): void {
    this.#ending = undefined;
    if (this.#chunks.size > 0) this.#chunks.clear();
    this.#queue?.close();
  }

  #consumed(by: string): SluiceError {
    return new SluiceError(
      'STREAM_CONSUMED',
      `The stream of \`${this.callId}\` already has a consumer (${by} cannot be another one)`,
    );
  }

  #subscribe(subscriber: Subscriber<ChunkEvent<JsonValue>>): () => void {
    if (this.#consumer !== undefined) {
      subscriber.error(this.#consumed('a subscriber'));
      return () => {};
    }
    this.#consumer = 'observable';
    this.#sink = subscriber;
    const demand = demandOf(subscriber);
    this.#sinkDemandless = demand === undefined;
    this.#gate.pause();
    const queue = this.#openQueue();
    const stopDemand = demand?.onChange((paused) => {
      if (paused) this.#gate.pause();
      else {
        this.#gate.resume();
        this.#topUp();
      }
    });
    const stopValve = queue.producerValve.onChange((paused) => paused || this.#topUp());
    if (demand?.paused !== true) this.#gate.resume();
    this.#topUp();
    return () => {
      stopDemand?.();
      stopValve();
      this.#sink = undefined;
      this.#release();
    };
  }

  /**
   * The Observable consumer's queue (the consumer's demand as its gate), with what arrived before
   * it subscribed moved in, in order.
   */
  #openQueue(): DemandQueue<HostcallStreamChunk> {
    const queue = new DemandQueue<HostcallStreamChunk>(
      {
        highWater: this.#link.prefetch,
        lowWater: halfWater(this.#link.prefetch),
        deliver: (event) => this.#deliverOut(event),
        finish: (ending) => this.#finishOut(ending),
      },
      new DemandGate(this.#gate),
    );
    for (let event = this.#chunks.shift(); event !== undefined; event = this.#chunks.shift())
      queue.push(event);
    const ending = this.#ending;
    this.#ending = undefined;
    this.#queue = queue;
    if (ending !== undefined) queue.end(ending);
    return queue;
  }

  #settle(): void {
    if (this.#settled === true) return;
    this.#settled = true;
    this.#link.settled();
  }
}
