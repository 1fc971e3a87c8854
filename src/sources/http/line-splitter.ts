/** One piece of decoded text from a {@link LineSplitter}. */
export interface LinePiece {
  /** A whole line with its `\n`, a last line without one, or a piece of a long line. */
  readonly text: string;
  /** `true` on a piece of a line longer than the limit: more of the same line follows. */
  readonly partial: boolean;
}

const NEWLINE = 0x0a;
const EMPTY = new Uint8Array(0);
const isContinuation = (byte: number | undefined): boolean => byte !== undefined && (byte & 0xc0) === 0x80;

/**
 * Splits a stream of UTF-8 bytes into decoded lines, each with its `\n`.
 *
 * It splits bytes before it decodes them, so memory and the line limit are counted in bytes and
 * a multi-byte character split across two reads is decoded whole (the incomplete tail waits for
 * the next read). A line longer than `maxLineBytes` (newline included) is cut into pieces of at
 * most that many bytes, at character boundaries; every piece but the last is `partial`, so
 * joining pieces up to the next non-partial one gives the line back. Invalid UTF-8 becomes U+FFFD.
 *
 * @example
 * ```ts
 * const splitter = new LineSplitter(65_536);
 * splitter.push(new TextEncoder().encode('a\nb')); // [{ text: 'a\n', partial: false }]
 * splitter.flush(); // { text: 'b', partial: false }
 * ```
 */
export class LineSplitter {
  readonly #maxLineBytes: number;
  readonly #decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  #pending: Uint8Array = EMPTY;

  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes;
  }

  /** Feeds one read; returns the pieces it completes. At most `maxLineBytes` bytes stay pending. */
  push(chunk: Uint8Array): LinePiece[] {
    const data = this.#pending.length === 0 ? chunk : concat(this.#pending, chunk);
    const pieces: LinePiece[] = [];
    let start = 0;
    for (;;) {
      const newline = data.indexOf(NEWLINE, start);
      const end = newline === -1 ? data.length : newline + 1;
      while (end - start > this.#maxLineBytes) {
        const cut = this.#boundary(data, start, start + this.#maxLineBytes);
        pieces.push({ text: this.#decoder.decode(data.subarray(start, cut)), partial: true });
        start = cut;
      }
      if (newline === -1) break;
      pieces.push({ text: this.#decoder.decode(data.subarray(start, end)), partial: false });
      start = end;
    }
    this.#pending = start === data.length ? EMPTY : data.slice(start);
    return pieces;
  }

  /** The bytes still pending (a last line without a newline), decoded; `undefined` if none. */
  flush(): LinePiece | undefined {
    if (this.#pending.length === 0) return undefined;
    const text = this.#decoder.decode(this.#pending);
    this.#pending = EMPTY;
    return { text, partial: false };
  }

  /** Moves `cut` back to the start of the character it falls in (at most 3 bytes: UTF-8's longest tail). */
  #boundary(data: Uint8Array, start: number, cut: number): number {
    let at = cut;
    while (at > start && at > cut - 3 && isContinuation(data[at])) at -= 1;
    return at > start && !isContinuation(data[at]) ? at : cut;
  }
}

function concat(head: Uint8Array, tail: Uint8Array): Uint8Array {
  const joined = new Uint8Array(head.length + tail.length);
  joined.set(head, 0);
  joined.set(tail, head.length);
  return joined;
}
