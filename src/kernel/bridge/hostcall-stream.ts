import { Observable, Subject, type Subscriber } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import { currentDemand } from '../../core/demand.js';
import { isSequenceError } from '../../core/errors/sequence-error.js';
import { SluiceError } from '../../core/errors/sluice-error.js';
import { checkSequence } from '../../operators/check-sequence.js';
import type { HostcallOutcome } from '../protocol/hostcall-outcome.js';
import type { JsonValue } from '../protocol/json-value.js';

/**
 * What a {@link HostcallStream} needs from its bridge.
 *
 * @example
 * ```ts
 * new HostcallStream('hc-1', { prefetch: 16, pull: (n) => {}, cancel: () => {}, settled: () => {} });
 * ```
 */
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

type Waiter = {
  resolve: (result: IteratorResult<JsonValue, undefined>) => void;
  reject: (error: unknown) => void;
};

/**
 * The extension side of one streaming hostcall: both an `AsyncIterableIterator` of chunks and an
 * RxJS `Observable` of chunk events (one consumer, either way).
 *
 * As an iterator it follows the seed's `next()`: each `next()` with nothing buffered pulls one
 * chunk from the host (so a consumer that stops calling `next()` stops the producer, and after
 * `stall_timeout_ms` the host cancels); a final `null` chunk ends iteration (`{ done: true }`); a
 * final non-null chunk is yielded, then iteration ends; an `Error` outcome rejects the `next()`
 * after the chunks delivered before it. `return()` (a `break` in `for await`) cancels the stream
 * on the host. As an Observable, subscribe gets `{ sequence, kind: 'chunk', content, isFinal }`
 * events then `complete`, or an error (a {@link SluiceError} with the outcome's `code`);
 * unsubscribing cancels. A plain subscriber makes the stream flow; a subscriber with a
 * {@link currentDemand} keeps `prefetch` chunks asked for while the demand is not paused.
 *
 * Sequence numbers are checked with {@link checkSequence}: a stream that does not start at 0,
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
  readonly #input = new Subject<ChunkEvent<JsonValue>>();
  readonly #buffer: ChunkEvent<JsonValue>[] = [];
  #failure: { error: unknown } | undefined;
  #finished = false;
  #released = false;
  #consumer: 'iterator' | 'observable' | undefined;
  #waiter: Waiter | undefined;
  #outstanding = 0;
  #sink: Subscriber<ChunkEvent<JsonValue>> | undefined;
  #topUp: (() => void) | undefined;

  constructor(callId: string, link: HostcallStreamLink) {
    super((subscriber) => (this as HostcallStream).#subscribe(subscriber));
    this.callId = callId;
    this.#link = link;
    this.#input.pipe(checkSequence()).subscribe({
      next: (event) => this.#onEvent(event),
      error: (error: unknown) => this.#onError(error),
    });
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
    if (this.#finished) return;
    if (outcome.type === 'streamChunk') {
      this.#input.next({
        sequence: outcome.sequence,
        kind: 'chunk',
        content: outcome.chunk,
        isFinal: outcome.isFinal,
      });
      if (outcome.isFinal) this.#input.complete();
    } else if (outcome.type === 'error') {
      this.#input.error(new SluiceError(outcome.code, outcome.message));
    } else {
      // A kind that ignored `stream: true` answered once: its value is the one, final chunk.
      this.#onEvent({ sequence: 0, kind: 'chunk', content: outcome.value, isFinal: true });
    }
  }

  next(): Promise<IteratorResult<JsonValue, undefined>> {
    if (this.#consumer === 'observable') {
      return Promise.reject(new TypeError(`The stream of \`${this.callId}\` is already subscribed to`));
    }
    this.#consumer = 'iterator';
    const event = this.#buffer.shift();
    if (event !== undefined) return Promise.resolve(toResult(event));
    if (this.#failure !== undefined) {
      const { error } = this.#failure;
      this.#failure = undefined;
      this.#released = true;
      return Promise.reject(error);
    }
    if (this.#finished || this.#released) return Promise.resolve({ value: undefined, done: true });
    if (this.#waiter !== undefined)
      return Promise.reject(new TypeError('next() called before the previous one settled'));
    if (this.#outstanding === 0) {
      this.#outstanding = 1;
      this.#link.pull(1);
    }
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<JsonValue, undefined>> {
    this.#release();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  #release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#buffer.length = 0;
    this.#failure = undefined;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    if (!this.#finished) this.#link.cancel();
    waiter?.resolve({ value: undefined, done: true });
  }

  #subscribe(subscriber: Subscriber<ChunkEvent<JsonValue>>): () => void {
    if (this.#consumer !== undefined) {
      subscriber.error(new TypeError(`The stream of \`${this.callId}\` already has a consumer`));
      return () => {};
    }
    this.#consumer = 'observable';
    for (const event of this.#buffer.splice(0)) subscriber.next(event);
    if (this.#failure !== undefined) subscriber.error(this.#failure.error);
    else if (this.#finished) subscriber.complete();
    if (subscriber.closed) return () => {};
    this.#sink = subscriber;
    const demand = currentDemand();
    this.#topUp = () => {
      if (demand?.paused === true || this.#outstanding >= this.#link.prefetch) return;
      const count = demand === undefined ? Number.POSITIVE_INFINITY : this.#link.prefetch - this.#outstanding;
      this.#outstanding += count;
      this.#link.pull(count);
    };
    const stop = demand?.onChange(() => this.#topUp?.());
    this.#topUp();
    return () => {
      stop?.();
      this.#sink = undefined;
      this.#topUp = undefined;
      this.#release();
    };
  }

  #onEvent(event: ChunkEvent<JsonValue>): void {
    if (!event.isFinal) this.#outstanding = Math.max(0, this.#outstanding - 1);
    if (event.isFinal) this.#settle();
    if (this.#released && this.#sink === undefined) return;
    if (this.#sink !== undefined) {
      this.#sink.next(event);
      if (event.isFinal) this.#sink.complete();
      else this.#topUp?.();
      return;
    }
    const waiter = this.#waiter;
    this.#waiter = undefined;
    if (waiter !== undefined) waiter.resolve(toResult(event));
    else this.#buffer.push(event);
  }

  #onError(error: unknown): void {
    this.#settle();
    if (isSequenceError(error)) this.#link.cancel();
    if (this.#released && this.#sink === undefined) return;
    if (this.#sink !== undefined) {
      this.#sink.error(error);
      return;
    }
    const waiter = this.#waiter;
    this.#waiter = undefined;
    if (waiter !== undefined) {
      this.#released = true;
      waiter.reject(error);
    } else this.#failure = { error };
  }

  #settle(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#link.settled();
  }
}

function toResult(event: ChunkEvent<JsonValue>): IteratorResult<JsonValue, undefined> {
  if (event.isFinal && event.content === null) return { value: undefined, done: true };
  return { value: event.content as JsonValue, done: false };
}
