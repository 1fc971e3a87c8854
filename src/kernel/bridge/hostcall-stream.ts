import { Observable, type Subscriber } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import { type Demand, Valve } from '../../core/demand.js';
import { sequenceViolation } from '../../core/errors/sequence-error.js';
import { SluiceError } from '../../core/errors/sluice-error.js';
import {
  DemandQueue,
  type DemandQueueOptions,
  halfWater,
  type QueueEnding,
} from '../../core/queue/demand-queue.js';
import { DemandGate } from '../../core/queue/queue-outlet.js';
import { RingQueue } from '../../core/queue/ring-queue.js';
import { demandOf } from '../../core/subscriber-chain.js';
import { type HostcallOutcome, type HostcallStreamChunk, streamChunk } from '../protocol/hostcall-outcome.js';
import type { JsonValue } from '../protocol/json-value.js';

/** What a {@link HostcallStream} needs from its bridge. */
export interface HostcallStreamLink {
  /** Ask the host for `count` more chunks (`Infinity`: flowing). */
  pull(count: number): void;
  cancel(): void;
  /** The stream will take no more outcomes (final chunk, error, sequence error): forget the call. */
  settled(): void;
  /** How many chunks a consumer keeps asked for (the call's `buffer_size`). */
  readonly prefetch: number;
}

type Result = IteratorResult<JsonValue, undefined>;

const DONE = Object.freeze({ value: undefined, done: true }) as Result;

/**
 * The extension side of one streaming hostcall, as an async iterator of chunks or an Observable
 * of chunk events, for one consumer (docs/protocol.md, "The extension side"). A final `null` chunk
 * ends iteration, a final non-null one is yielded first; an `Error` outcome fails after the chunks
 * before it. `break` or unsubscribing cancels on the host. A second consumer fails with
 * `STREAM_CONSUMED`; a chunk out of sequence fails with a `SequenceError` and cancels.
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
  readonly callId: string;
  readonly #credit: Credit;
  /** The iterator's outlet, which also holds what arrives before a consumer comes. */
  readonly #ring: IteratorOutlet;
  /** Where chunks go: the ring, or a subscriber's queue once one subscribed. */
  #outlet: Outlet;
  #consumer: 'iterator' | 'observable' | undefined;
  #expected = 0;

  constructor(callId: string, link: HostcallStreamLink) {
    super((subscriber) => (this as HostcallStream).#subscribe(subscriber));
    this.callId = callId;
    this.#credit = new Credit(link);
    this.#ring = new IteratorOutlet(this.#credit);
    this.#outlet = this.#ring;
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
    if (this.#credit.settled === true) return;
    // The next chunk in order is all this method holds (docs/performance.md, "Smaller hot functions").
    if (outcome.type === 'streamChunk' && outcome.sequence === this.#expected) this.#accept(outcome);
    else this.#deliverOther(outcome);
  }

  /** An error, an answer that ignored `stream: true`, or a chunk out of sequence. */
  #deliverOther(outcome: HostcallOutcome): void {
    if (outcome.type === 'streamChunk') {
      this.#credit.settle();
      if (this.#outlet.released !== true) this.#credit.cancel();
      this.#outlet.end({ error: true, reason: sequenceViolation(this.#expected, outcome.sequence, false) });
    } else if (outcome.type === 'error') {
      this.#credit.settle();
      this.#outlet.end({ error: true, reason: new SluiceError(outcome.code, outcome.message) });
    } else {
      // A kind that ignored `stream: true` answered once: its value is the one, final chunk.
      this.#accept(streamChunk(this.#expected, outcome.value, true));
    }
  }

  #accept(event: HostcallStreamChunk): void {
    this.#expected = event.sequence + 1;
    if (event.isFinal === true) {
      this.#acceptFinal(event);
      return;
    }
    this.#credit.received();
    if (this.#outlet.put(event)) this.#outlet.topUp();
  }

  /** The final chunk (once per stream, so not in `#accept`): no more outcomes, then the end. */
  #acceptFinal(event: HostcallStreamChunk): void {
    this.#credit.settle();
    this.#outlet.put(event);
    this.#outlet.end({ error: false });
  }

  next(): Promise<Result> {
    if (this.#consumer === 'observable') return Promise.reject(this.#consumed('an iterator'));
    this.#consumer = 'iterator';
    return this.#ring.next();
  }

  return(): Promise<Result> {
    // The iterator was this stream's consumer, even if it never called `next()`: a subscriber
    // after it fails with STREAM_CONSUMED rather than getting what the host sends after the cancel.
    this.#consumer ??= 'iterator';
    this.#outlet.release();
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): this {
    return this;
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
    const outlet = new SubscriberOutlet(this.#credit, subscriber, demandOf(subscriber));
    this.#outlet = outlet;
    this.#ring.moveTo(outlet);
    outlet.open();
    return () => outlet.release();
  }
}

/**
 * The stream's credit with the host (docs/protocol.md, "The bounded channel"): how many chunks were
 * asked for and have not come, and whether the host will send more at all. It asks again once at
 * most half the window (`prefetch`) is asked for or waiting for the consumer: a pull per half
 * window, not per chunk.
 */
class Credit {
  /** No more outcomes are taken (final chunk, error, sequence error). */
  settled = false;
  #outstanding = 0;
  #flowing = false;
  readonly #link: HostcallStreamLink;

  constructor(link: HostcallStreamLink) {
    this.#link = link;
    // Written a second time so that V8 does not take it for a constant (docs/performance.md,
    // "Code that survives the end of a stream").
    this.settled = false;
  }

  /** A chunk that was asked for came. */
  received(): void {
    if (this.#outstanding > 0) this.#outstanding -= 1;
  }

  get prefetch(): number {
    return this.#link.prefetch;
  }

  /** Whether more than half the window is asked for or `held` here: nothing to ask yet. */
  full(held: number): boolean {
    return this.#flowing === true || this.#outstanding + held > this.#link.prefetch >> 1;
  }

  /** Asks for the rest of the window, or for as many as `waiting` `next()` calls if more. */
  topUp(held: number, waiting: number): void {
    if (this.settled === true || this.full(held)) return;
    const count = Math.max(this.#link.prefetch, waiting) - this.#outstanding - held;
    this.#outstanding += count;
    this.#link.pull(count);
  }

  /** A consumer with no demand: the host sends chunks as they come. */
  flow(): void {
    if (this.settled === true || this.#flowing === true) return;
    this.#flowing = true;
    this.#outstanding = Number.POSITIVE_INFINITY;
    this.#link.pull(Number.POSITIVE_INFINITY);
  }

  settle(): void {
    if (this.settled === true) return;
    this.settled = true;
    this.#link.settled();
  }

  /** The consumer left before the end: the host stops the producer. */
  cancel(): void {
    this.#link.cancel();
  }
}

/** Where a stream's chunks go on their way to its consumer. */
interface Outlet {
  /** The consumer is gone or got everything: nothing more goes out, nothing is asked. */
  readonly released: boolean;
  /** Takes a chunk; returns whether the window may now have room to ask for more. */
  put(event: HostcallStreamChunk): boolean;
  /** The end, after the chunks before it. */
  end(ending: QueueEnding): void;
  /** Asks the host for more if the consumer's demand and the window allow. */
  topUp(): void;
  /** The consumer left (`return()`, unsubscribe): cancels the stream unless it ended; nothing more goes out. */
  release(): void;
}

/** One pending `next()` of the iterator. */
interface Waiter {
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Resolves a waiting `next()`: every waiter of every stream through this one call site
 * (docs/performance.md, "One call for every waiter").
 */
function resolveWaiter(waiter: Waiter, result: Result): void {
  waiter.resolve(result);
}

/**
 * The async-iterator face: chunks wait in a ring, or go straight to a waiting `next()`; its only
 * demand is the pending `next()` calls and the window (docs/performance.md, "The iterator's own
 * ring on the kernel path").
 */
class IteratorOutlet implements Outlet {
  released = false;
  readonly #credit: Credit;
  readonly #chunks = new RingQueue<HostcallStreamChunk>();
  /** The end behind the chunks, handed to the `next()` after the last one. */
  #ending: QueueEnding | undefined;
  /** Pending `next()` calls, oldest first (only while no chunk waits). */
  readonly #waiters = new RingQueue<Waiter>();

  constructor(credit: Credit) {
    this.#credit = credit;
    // Written a second time (docs/performance.md, "Code that survives the end of a stream").
    this.released = false;
    this.#ending = undefined;
  }

  next(): Promise<Result> {
    const chunks = this.#chunks;
    if (chunks.size > 0) {
      const event = chunks.shift() as HostcallStreamChunk;
      const end = this.#endsIteration(event);
      if (!this.#credit.full(chunks.size)) this.topUp();
      // The result is built at the call: V8 then sees it is no thenable (docs/performance.md,
      // "Fewer steps per chunk").
      return end ? Promise.resolve(DONE) : Promise.resolve({ value: event.chunk, done: false });
    }
    const ending = this.#ending;
    if (ending !== undefined) {
      this.#ending = undefined;
      this.released = true;
      return ending.error ? Promise.reject(ending.reason) : Promise.resolve(DONE);
    }
    if (this.released === true) return Promise.resolve(DONE);
    const pending = new Promise<Result>((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
    });
    this.topUp();
    return pending;
  }

  /**
   * A chunk left here waits behind the others and leaves the window as full as it was; one handed
   * to a waiting `next()` may leave room. The test is made here, where every stream's first chunk
   * goes (docs/performance.md, "One call target per call site").
   */
  put(event: HostcallStreamChunk): boolean {
    if (this.released === true) return false;
    const waiter = this.#waiters.shift();
    if (waiter === undefined) {
      this.#chunks.push(event);
      return false;
    }
    resolveWaiter(waiter, this.#endsIteration(event) ? DONE : { value: event.chunk, done: false });
    return true;
  }

  end(ending: QueueEnding): void {
    if (this.#chunks.size > 0) this.#ending = ending;
    // Waiting `next()` calls are settled even when released: a final null chunk released the
    // stream while handing `done` to the first of them.
    else if (this.#waiters.size > 0) {
      const first = this.#waiters.shift() as Waiter;
      this.released = true;
      if (ending.error) first.reject(ending.reason);
      else resolveWaiter(first, DONE);
      this.#endWaiters();
    } else if (this.released !== true) this.#ending = ending;
  }

  topUp(): void {
    if (this.released !== true) this.#credit.topUp(this.#chunks.size, this.#waiters.size);
  }

  /** Also ends the waiting `next()` calls. */
  release(): void {
    if (this.released !== true && this.#credit.settled !== true) this.#credit.cancel();
    this.released = true;
    this.#ending = undefined;
    if (this.#chunks.size > 0) this.#chunks.clear();
    this.#endWaiters();
  }

  /** A subscriber came first: what arrived before it goes to its queue, in order. */
  moveTo(outlet: SubscriberOutlet): void {
    for (let event = this.#chunks.shift(); event !== undefined; event = this.#chunks.shift())
      outlet.put(event);
    const ending = this.#ending;
    this.#ending = undefined;
    if (ending !== undefined) outlet.end(ending);
  }

  /** Whether `event` ends iteration (the final `null` chunk); if it does, releases the outlet. */
  #endsIteration(event: HostcallStreamChunk): boolean {
    if (event.isFinal !== true || event.chunk !== null) return false;
    this.released = true;
    return true;
  }

  #endWaiters(): void {
    for (let waiter = this.#waiters.shift(); waiter; waiter = this.#waiters.shift())
      resolveWaiter(waiter, DONE);
  }
}

/**
 * The Observable face: a {@link DemandQueue} gated by the subscriber's demand, which the credit
 * follows too. The gate is closed while the subscriber is being set up, so that what arrived
 * before it waits until then. The queue calls `deliver` and `finish` on this object.
 */
class SubscriberOutlet implements Outlet, DemandQueueOptions<HostcallStreamChunk> {
  released = false;
  readonly highWater: number;
  readonly lowWater: number;
  readonly #credit: Credit;
  readonly #sink: Subscriber<ChunkEvent<JsonValue>>;
  readonly #demand: Demand | undefined;
  readonly #gate = new Valve();
  readonly #queue: DemandQueue<HostcallStreamChunk>;
  #stopDemand: (() => void) | undefined;
  #stopValve: (() => void) | undefined;

  constructor(credit: Credit, sink: Subscriber<ChunkEvent<JsonValue>>, demand: Demand | undefined) {
    this.#credit = credit;
    this.#sink = sink;
    this.#demand = demand;
    this.#gate.pause();
    this.highWater = credit.prefetch;
    this.lowWater = halfWater(credit.prefetch);
    this.#queue = new DemandQueue<HostcallStreamChunk>(this, new DemandGate(this.#gate));
  }

  /** Follows the subscriber's demand, then lets out what waits and asks for more. */
  open(): void {
    this.#stopDemand = this.#demand?.onChange((paused) => {
      if (paused) this.#gate.pause();
      else {
        this.#gate.resume();
        this.topUp();
      }
    });
    this.#stopValve = this.#queue.producerValve.onChange((paused) => paused || this.topUp());
    if (this.#demand?.paused !== true) this.#gate.resume();
    this.topUp();
  }

  put(event: HostcallStreamChunk): boolean {
    this.#queue.push(event);
    return true;
  }

  end(ending: QueueEnding): void {
    this.#queue.end(ending);
  }

  topUp(): void {
    if (this.released === true) return;
    if (this.#demand === undefined) this.#credit.flow();
    else if (this.#queue.producerValve.paused !== true && this.#gate.paused !== true)
      this.#credit.topUp(this.#queue.size, 0);
  }

  deliver(event: HostcallStreamChunk): void {
    if (this.released === true) return;
    this.#sink.next({
      sequence: event.sequence,
      kind: 'chunk',
      content: event.chunk,
      isFinal: event.isFinal,
    });
  }

  finish(ending: QueueEnding): void {
    if (this.released === true) return;
    if (ending.error) this.#sink.error(ending.reason);
    else this.#sink.complete();
  }

  release(): void {
    this.#stopDemand?.();
    this.#stopValve?.();
    if (this.released !== true && this.#credit.settled !== true) this.#credit.cancel();
    this.released = true;
    this.#queue.close();
  }
}
