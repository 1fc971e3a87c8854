import { utf8Boundary } from './utf8-boundary.js';

/** Receives the pieces a splitter produces: a decoded line (or piece of one) and whether it is partial. */
export type PieceSink = (text: string, partial: boolean) => void;

/**
 * Splits one pipe's bytes into UTF-8 lines, each including its `\n`. A line longer than
 * `maxLineBytes` is cut (at UTF-8 boundaries) into pieces of at most that many bytes; all but the
 * last are `partial`. `\n` never occurs inside a multi-byte character, so every line — and every
 * piece, being cut at a character boundary — decodes whole; invalid bytes become U+FFFD.
 *
 * The fast path (a whole line inside one read) costs one `indexOf` and one `toString` per line.
 *
 * @example
 * ```ts
 * const splitter = new LineSplitter(65536, (text, partial) => console.log(JSON.stringify(text), partial));
 * splitter.push(Buffer.from('a\nb'));
 * splitter.push(Buffer.from('c\n'));
 * splitter.end(); // logs "a\n" false, then "bc\n" false
 * ```
 */
export class LineSplitter {
  readonly #max: number;
  readonly #sink: PieceSink;
  #carry: Buffer[] = [];
  #carryLength = 0;

  constructor(maxLineBytes: number, sink: PieceSink) {
    this.#max = maxLineBytes;
    this.#sink = sink;
  }

  push(bytes: Buffer): void {
    const length = bytes.length;
    let start = 0;
    while (start < length) {
      const newline = bytes.indexOf(10, start);
      if (newline === -1) {
        this.#keep(bytes.subarray(start));
        return;
      }
      const end = newline + 1;
      if (this.#carryLength === 0 && end - start <= this.#max) {
        this.#sink(bytes.toString('utf8', start, end), false);
      } else {
        this.#keep(bytes.subarray(start, end));
        this.#flush();
      }
      start = end;
    }
  }

  /** The pipe ended: emits a last line that had no newline. */
  end(): void {
    if (this.#carryLength > 0) this.#flush();
  }

  #keep(bytes: Buffer): void {
    this.#carry.push(bytes);
    this.#carryLength += bytes.length;
    if (this.#carryLength > this.#max) this.#cutPieces();
  }

  #cutPieces(): void {
    const joined = this.#carry.length === 1 ? (this.#carry[0] as Buffer) : Buffer.concat(this.#carry);
    let offset = 0;
    while (joined.length - offset > this.#max) {
      let cut = utf8Boundary(joined, offset + this.#max);
      if (cut <= offset) cut = offset + this.#max;
      this.#sink(joined.toString('utf8', offset, cut), true);
      offset = cut;
    }
    this.#carry = [joined.subarray(offset)];
    this.#carryLength = joined.length - offset;
  }

  #flush(): void {
    const joined = this.#carry.length === 1 ? (this.#carry[0] as Buffer) : Buffer.concat(this.#carry);
    this.#carry = [];
    this.#carryLength = 0;
    this.#sink(joined.toString('utf8'), false);
  }
}
