import { Observable, Subject, type Subscriber } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import { currentDemand } from '../../core/demand.js';
import { isSequenceError } from '../../core/errors/sequence-error.js';
import { SluiceError } from '../../core/errors/sluice-error.js';
import { checkSequence } from '../../operators/check-sequence.js';
import type { HostcallOutcome } from '../protocol/hostcall-outcome.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { HostcallStreamLink } from './hostcall-stream-link.js';
import { NextWaiters } from './next-waiters.js';

/**
 * The extension side of one streaming hostcall: both an `AsyncIterableIterator` of chunks and an
 * RxJS `Observable` of chunk events (one consumer, either way).
 *
 * As an iterator it follows the seed's `next()`: each `next()` with nothing buffered pulls one
 * chunk from the host (so a consumer that stops calling `next()` stops the producer, and after
 * `stall_timeout_ms` the host cancels); a final `null` chunk ends iteration (`{ done: true }`); a
 * final non-null chunk is yielded, then iteration ends; an `Error` outcome rejects the `next()`
 * after the chunks delivered before it. `next()` calls made without awaiting are served in call
 * order, each with its own chunk (each pulls one). `return()` (a `break` in `for await`) cancels
 * the stream on the host and ends the waiting calls. As an Observable, subscribe gets `{ sequence, kind: 'chunk', content, isFinal }`
 * events then `complete`, or an error (a {@link SluiceError} with the outcome's `code`);
 * unsubscribing cancels. A plain subscriber makes the stream flow; a subscriber with a
 * {@link currentDemand} keeps `prefetch` chunks asked for while the demand is not paused. A
 * second consumer (another subscriber, or an iterator after a subscriber and vice versa) fails
 * with a `SluiceError` of code `STREAM_CONSUMED`.
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
  readonly #waiters = new NextWaiters<JsonValue>();
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
    if (this.#consumer === 'observable') return Promise.reject(this.#consumed('an iterator'));
    this.#consumer = 'iterator';
    if (this.#waiters.size === 0) {
      const event = this.#buffer.shift();
      if (event !== undefined) return Promise.resolve(toResult(event));
      if (this.#failure !== undefined) {
        const { error } = this.#failure;
        this.#failure = undefined;
        this.#released = true;
        return Promise.reject(error);
      }
    }
    if (this.#finished || this.#released) return Promise.resolve({ value: undefined, done: true });
    const result = this.#waiters.wait();
    if (this.#outstanding < this.#waiters.size) {
      this.#outstanding += 1;
      this.#link.pull(1);
    }
    return result;
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
    if (!this.#finished) this.#link.cancel();
    this.#waiters.end();
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
    if (!this.#waiters.resolve(toResult(event))) this.#buffer.push(event);
    if (event.isFinal) this.#waiters.end();
  }

  #onError(error: unknown): void {
    this.#settle();
    if (isSequenceError(error)) this.#link.cancel();
    if (this.#released && this.#sink === undefined) return;
    if (this.#sink !== undefined) {
      this.#sink.error(error);
      return;
    }
    if (this.#waiters.reject(error)) {
      this.#released = true;
      this.#waiters.end();
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
