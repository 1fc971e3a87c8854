import type { ChunkEvent } from '../../core/chunk.js';
import { SequenceError, sequenceViolation } from '../../core/errors/sequence-error.js';
import { toRunFailure } from '../run-failure.js';
import type { RunFailure } from '../run-record.js';
import { encodeChunkEvent, encodeRunFailure } from './run-frames.js';

/** Bounds of a {@link ReplayLog}. */
export interface ReplayBounds {
  /** At most this many events are retained. */
  readonly maxEvents: number;
  /** At most this many bytes of encoded frames are retained (the newest event always stays). */
  readonly maxBytes: number;
}

/** One retained event: its encoded SSE frame and its size. */
export interface ReplayEntry {
  readonly sequence: number;
  /** The event encoded as one SSE frame (`id`, `event`, `data`), ready to write. */
  readonly frame: string;
  /** The frame's length in UTF-8 bytes (what counts against `maxBytes`). */
  readonly bytes: number;
  /** Whether this is the stream's final event. */
  readonly isFinal: boolean;
}

/**
 * The bounded replay log of one stream (what `MemoryRunStore` keeps per run): the newest events as
 * SSE frames, the oldest evicted past `maxEvents` or `maxBytes` (the newest always stays), and
 * how the stream ended: its final event, or a failure.
 */
export class ReplayLog {
  readonly #bounds: ReplayBounds;
  readonly #entries: ReplayEntry[] = [];
  #head = 0;
  #bytes = 0;
  #next = 0;
  #failure: RunFailure | undefined;
  #failureFrame: string | undefined;

  constructor(bounds: ReplayBounds) {
    this.#bounds = bounds;
  }

  /** The sequence of the oldest retained event (equal to {@link next} when nothing is retained). */
  get oldest(): number {
    return this.#next - (this.#entries.length - this.#head);
  }

  /** The sequence the next appended event must have. */
  get next(): number {
    return this.#next;
  }

  get size(): number {
    return this.#entries.length - this.#head;
  }

  /** How many bytes of encoded frames are retained. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Whether the log is at one of its bounds: the next append evicts. */
  get full(): boolean {
    return this.size >= this.#bounds.maxEvents || this.#bytes >= this.#bounds.maxBytes;
  }

  /** Whether the stream has ended (final event appended, or failed). */
  get ended(): boolean {
    return this.#failure !== undefined || this.#entries[this.#entries.length - 1]?.isFinal === true;
  }

  /** The failure frame, once the stream has failed. */
  get failure(): string | undefined {
    return this.#failureFrame;
  }

  /** How the stream failed (`{code, name, message}`), once it has. */
  get failureInfo(): RunFailure | undefined {
    return this.#failure;
  }

  /** The retained entry with this sequence, or `undefined` (evicted, or not yet appended). */
  get(sequence: number): ReplayEntry | undefined {
    if (sequence < this.oldest || sequence >= this.#next) return undefined;
    return this.#entries[this.#head + (sequence - this.oldest)];
  }

  /** Appends the next event; a {@link SequenceError} if it is not {@link next} or the stream ended. */
  append(event: ChunkEvent<unknown>): ReplayEntry {
    const violation = sequenceViolation(this.#next, event.sequence, this.ended);
    if (violation !== undefined) throw violation;
    const frame = encodeChunkEvent(event);
    const entry: ReplayEntry = {
      sequence: event.sequence,
      frame,
      bytes: Buffer.byteLength(frame),
      isFinal: event.isFinal,
    };
    this.#entries.push(entry);
    this.#bytes += entry.bytes;
    this.#next += 1;
    while (this.size > 1 && (this.size > this.#bounds.maxEvents || this.#bytes > this.#bounds.maxBytes)) {
      this.#evict();
    }
    return entry;
  }

  /** Records that the stream failed with `error` (after the retained events). */
  fail(error: unknown): void {
    if (this.ended) return;
    this.#failure = toRunFailure(error);
    this.#failureFrame = encodeRunFailure(this.#failure);
  }

  #evict(): void {
    const entry = this.#entries[this.#head];
    if (entry === undefined) return;
    this.#bytes -= entry.bytes;
    this.#head += 1;
    if (this.#head >= 1024 && this.#head * 2 >= this.#entries.length) {
      this.#entries.splice(0, this.#head);
      this.#head = 0;
    }
  }
}
