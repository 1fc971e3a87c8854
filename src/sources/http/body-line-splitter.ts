import { Utf8LineSplitter } from '../exec/utf8-line-splitter.js';

/** One piece of decoded text from a {@link BodyLineSplitter}. */
export interface LinePiece {
  /** A whole line with its `\n`, a last line without one, or a piece of a long line. */
  readonly text: string;
  /** `true` on a piece of a line longer than the limit: more of the same line follows. */
  readonly partial: boolean;
}

/**
 * Splits a stream of UTF-8 bytes into decoded lines, each with its `\n`, for `http`'s
 * `lines: true`. The splitting is `exec`'s own (one algorithm for both sources: limits counted in
 * bytes, a multi-byte character split across reads decoded whole, a line longer than
 * `maxLineBytes` — newline included — cut at character boundaries into pieces of which every one
 * but the last is `partial`, invalid UTF-8 as U+FFFD); this class only collects the pieces of
 * each read so the body pump can emit them one at a time, as demand allows.
 *
 * @example
 * ```ts
 * const splitter = new BodyLineSplitter(65_536);
 * splitter.push(new TextEncoder().encode('a\nb')); // [{ text: 'a\n', partial: false }]
 * splitter.flush(); // { text: 'b', partial: false }
 * ```
 */
export class BodyLineSplitter {
  readonly #splitter: Utf8LineSplitter;
  #pieces: LinePiece[] = [];

  constructor(maxLineBytes: number) {
    this.#splitter = new Utf8LineSplitter(maxLineBytes, (text, partial) =>
      this.#pieces.push({ text, partial }),
    );
  }

  /** Feeds one read; returns the pieces it completes. At most `maxLineBytes` bytes stay pending. */
  push(chunk: Uint8Array): LinePiece[] {
    this.#splitter.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    return this.#take();
  }

  /** The bytes still pending (a last line without a newline), decoded; `undefined` if none. */
  flush(): LinePiece | undefined {
    this.#splitter.end();
    return this.#take()[0];
  }

  #take(): LinePiece[] {
    const pieces = this.#pieces;
    this.#pieces = [];
    return pieces;
  }
}
