import { once } from 'node:events';
import { createWriteStream, unlink, type WriteStream } from 'node:fs';

/**
 * The full output of one run, spooled to a file so that the page can offer all of it for
 * download while the replay log (and the page) keep only the newest part. Line contents are
 * appended as they arrive (stdout and stderr interleaved, as a terminal shows them); strings are
 * written as UTF-8, bytes as they are, anything else is skipped. Internal to `sluice/web`'s run
 * registry, exported for apps that serve downloads themselves.
 */
export class RunLogFile {
  readonly path: string;
  readonly #stream: WriteStream;
  #bytes = 0;
  #failed: Error | undefined;
  #ended: Promise<void> | undefined;

  constructor(path: string) {
    this.path = path;
    this.#stream = createWriteStream(path, { flags: 'w', mode: 0o600 });
    this.#stream.on('error', (error) => {
      this.#failed = error;
    });
  }

  /** How many bytes were appended. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The write error, if the file could not be written (the run itself goes on). */
  get error(): Error | undefined {
    return this.#failed;
  }

  /** Appends a chunk's content (a string or bytes); other contents are skipped. */
  write(content: unknown): void {
    if (this.#ended !== undefined || this.#failed !== undefined) return;
    if (typeof content === 'string') {
      this.#bytes += Buffer.byteLength(content);
      this.#stream.write(content);
    } else if (content instanceof Uint8Array) {
      this.#bytes += content.byteLength;
      this.#stream.write(content);
    }
  }

  /** Closes the file; resolves once everything written is on disk (or the write failed). */
  end(): Promise<void> {
    if (this.#ended === undefined) {
      if (this.#failed === undefined) this.#stream.end();
      this.#ended = this.#failed
        ? Promise.resolve()
        : once(this.#stream, 'close').then(
            () => undefined,
            () => undefined,
          );
    }
    return this.#ended;
  }

  /** Closes and deletes the file (a download already reading it finishes on Linux). */
  remove(): void {
    this.#ended ??= Promise.resolve();
    const removeFile = () => unlink(this.path, () => {});
    // After 'close': a stream destroyed while still opening creates the file when the open ends.
    if (this.#stream.closed) removeFile();
    else {
      this.#stream.once('close', removeFile);
      this.#stream.destroy();
    }
  }
}
