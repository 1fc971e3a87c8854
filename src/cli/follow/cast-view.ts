import { createWriteStream, openSync, type WriteStream } from 'node:fs';
import { Subject } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import { toAsciicast } from '../../operators/to-asciicast.js';
import { flagError } from '../cli-usage-error.js';
import { writePaced } from '../write-paced.js';

/** What `sluice follow` writes a run's records with: frames (`--json`), text, and a cast (`--cast`). */
export interface FollowView {
  /** The exit code the records so far call for. */
  readonly code: number;
  event(event: ChunkEvent<unknown>): Promise<void> | undefined;
  gap(from: number, to: number): Promise<void> | undefined;
  failure(failure: { code: string; name: string; message: string }): Promise<void> | undefined;
}

/**
 * `sluice follow --cast <file>`: the followed run's events also go to `file` as an asciicast v2
 * recording (docs/terminal.md, "Recording"), written as they come; what `inner` prints is
 * unchanged. The file is opened (and emptied) at once, so a path that cannot be written is a
 * usage error before Redis is asked anything.
 */
export class CastView implements FollowView {
  readonly #inner: FollowView;
  readonly #file: WriteStream;
  readonly #events = new Subject<ChunkEvent<unknown>>();
  /** A write to the file that waits for `'drain'`. */
  #full: Promise<void> | undefined;
  /** Why the file could not be written, said by {@link close}. */
  #error: Error | undefined;

  constructor(inner: FollowView, path: string) {
    this.#inner = inner;
    let fd: number;
    try {
      fd = openSync(path, 'w');
    } catch {
      throw flagError('cast', 'a file that can be written', path);
    }
    this.#file = createWriteStream(path, { fd });
    this.#file.on('error', (error) => {
      this.#error = error;
    });
    this.#events.pipe(toAsciicast()).subscribe((line) => {
      this.#full = writePaced(this.#file, line) ?? this.#full;
    });
  }

  get code(): number {
    return this.#inner.code;
  }

  event(event: ChunkEvent<unknown>): Promise<void> | undefined {
    this.#events.next(event);
    const full = this.#full;
    this.#full = undefined;
    const printed = this.#inner.event(event);
    return full === undefined && printed === undefined
      ? undefined
      : Promise.all([full, printed]).then(() => {});
  }

  gap(from: number, to: number): Promise<void> | undefined {
    return this.#inner.gap(from, to);
  }

  failure(failure: { code: string; name: string; message: string }): Promise<void> | undefined {
    return this.#inner.failure(failure);
  }

  /** Ends the recording: resolves once the file is written, rejects when it could not be. */
  close(): Promise<void> {
    this.#events.complete();
    return new Promise((resolve, reject) => {
      const settle = () => (this.#error === undefined ? resolve() : reject(this.#error));
      if (this.#file.destroyed) settle();
      else this.#file.end(settle);
    });
  }
}
