import type { Writable } from 'node:stream';
import { writePaced } from './write-paced.js';

/** What one `write()` to the stream holds at most: about one pipe read's worth of frames. */
const MAX_BATCH = 64 * 1024;

/**
 * Writes NDJSON lines to a stream in batches: the lines given during one turn of the event loop
 * (the frames of one read of the command, typically) go out as one `write()`, and a batch that
 * reaches 64 KiB goes out at once: a `write()` per line would cost more than the rest of
 * `sluice exec --json` (docs/performance.md, "`--json` without a queue of its own").
 *
 * Backpressure is the stream's: while its buffer is full, {@link NdjsonWriter.write} returns a
 * promise that settles on `'drain'` (or `'close'`/`'error'`, so a reader that went away never
 * leaves the caller waiting) — the caller awaits it, which pauses the producer. Call
 * {@link NdjsonWriter.flush} before the process ends: it writes what is left and waits for room.
 *
 * @example
 * ```ts
 * const out = new NdjsonWriter(process.stdout);
 * await onChunk(events, (event) => out.write(`${JSON.stringify(event)}\n`));
 * await out.flush();
 * ```
 */
export class NdjsonWriter {
  readonly #stream: Writable;
  #batch = '';
  #scheduled = false;
  #full: Promise<void> | undefined;

  constructor(stream: Writable) {
    this.#stream = stream;
  }

  /**
   * Queues `line` (its `'\n'` included). Returns a promise while the stream is full — await it
   * before writing more — and `undefined` otherwise.
   */
  write(line: string): Promise<void> | undefined {
    this.#batch += line;
    if (this.#batch.length >= MAX_BATCH) this.#send();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        this.#send();
      });
    }
    return this.#full;
  }

  /** Writes what is queued now; settles once the stream has room again (at once when it has). */
  flush(): Promise<void> {
    this.#send();
    return this.#full ?? Promise.resolve();
  }

  #send(): void {
    if (this.#batch === '') return;
    const batch = this.#batch;
    this.#batch = '';
    const drained = writePaced(this.#stream, batch);
    if (drained === undefined || this.#full !== undefined) return;
    this.#full = drained.then(() => {
      this.#full = undefined;
    });
  }
}
