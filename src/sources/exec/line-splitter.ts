/** Receives the pieces a {@link LineSplitter} produces: a line (or a piece of one) and whether it is partial. */
export type PieceSink<C extends string | Uint8Array = string> = (content: C, partial: boolean) => void;

/**
 * Splits one pipe's bytes into lines, each including its `\n`. A line longer than `maxLineBytes`
 * is cut into pieces of at most that many bytes; all but the last are `partial`.
 *
 * - `'utf8'` (default): each line decoded. Pieces are cut at UTF-8 boundaries, and `\n` never
 *   occurs inside a multi-byte character, so every line and piece decodes whole; invalid bytes
 *   become U+FFFD. A read of ASCII text is decoded with one `toString`, each line then an O(1)
 *   `slice` of it; otherwise each line costs one `indexOf` and one `toString` of its bytes.
 * - `'buffer'`: each line as the bytes the child wrote (nothing decoded; a single-read line is a
 *   view of the read, not a copy), long ones cut at exactly `maxLineBytes`.
 *
 * @example
 * ```ts
 * const splitter = new LineSplitter(65536, (text, partial) => console.log(JSON.stringify(text), partial));
 * splitter.push(Buffer.from('a\nb'));
 * splitter.push(Buffer.from('c\n'));
 * splitter.end(); // logs "a\n" false, then "bc\n" false
 * ```
 */
export class LineSplitter<C extends string | Uint8Array = string> {
  readonly #max: number;
  readonly #sink: PieceSink<C>;
  readonly #raw: boolean;
  #carry: Buffer[] = [];
  #carryLength = 0;

  constructor(maxLineBytes: number, sink: PieceSink<C>, encoding: 'utf8' | 'buffer' = 'utf8') {
    this.#max = maxLineBytes;
    this.#sink = sink;
    this.#raw = encoding === 'buffer';
  }

  push(bytes: Buffer): void {
    const length = bytes.length;
    let start = this.#carryLength === 0 ? 0 : this.#step(bytes, 0);
    if (start === -1) return;
    const last = this.#raw ? -1 : bytes.lastIndexOf(10);
    if (last >= start) {
      // Fast path: decode every whole line of this read at once. When the text has one UTF-16
      // unit per byte (ASCII, or lone invalid bytes), text and byte offsets agree: each line is
      // an O(1) slice of that string, and `maxLineBytes` is checked on it directly.
      const text = bytes.toString(undefined, start, last + 1);
      if (text.length === last + 1 - start) {
        this.#emitText(bytes, start, text);
        start = last + 1;
      }
    }
    while (start < length && start !== -1) start = this.#step(bytes, start);
  }

  /** The pipe ended: emits a last line that had no newline. */
  end(): void {
    if (this.#carryLength > 0) this.#flush();
  }

  /** One line (or the carried tail) from `start`; returns where the next begins, or -1 when done. */
  #step(bytes: Buffer, start: number): number {
    const newline = bytes.indexOf(10, start);
    if (newline === -1) {
      if (start < bytes.length) this.#keep(bytes.subarray(start));
      return -1;
    }
    const end = newline + 1;
    if (this.#carryLength === 0 && end - start <= this.#max) {
      // `undefined` is UTF-8: Buffer#toString then skips its encoding lookup.
      this.#sink(
        (this.#raw ? bytes.subarray(start, end) : bytes.toString(undefined, start, end)) as C,
        false,
      );
    } else {
      this.#keep(bytes.subarray(start, end));
      this.#flush();
    }
    return end;
  }

  /** `text` is `bytes` from `offset` up to its last `\n`, one unit per byte. */
  #emitText(bytes: Buffer, offset: number, text: string): void {
    const max = this.#max;
    let from = 0;
    while (from < text.length) {
      const end = text.indexOf('\n', from) + 1;
      if (end - from <= max) this.#sink(text.slice(from, end) as C, false);
      else {
        this.#keep(bytes.subarray(offset + from, offset + end));
        this.#flush();
      }
      from = end;
    }
  }

  #keep(bytes: Buffer): void {
    this.#carry.push(bytes);
    this.#carryLength += bytes.length;
    if (this.#carryLength > this.#max) this.#cutPieces();
  }

  #cutPieces(): void {
    const joined = this.#joined();
    let offset = 0;
    while (joined.length - offset > this.#max) {
      let cut = this.#raw ? offset + this.#max : utf8Boundary(joined, offset + this.#max);
      if (cut <= offset) cut = offset + this.#max;
      this.#sink(this.#content(joined, offset, cut), true);
      offset = cut;
    }
    this.#carry = [joined.subarray(offset)];
    this.#carryLength = joined.length - offset;
  }

  #flush(): void {
    const joined = this.#joined();
    this.#carry = [];
    this.#carryLength = 0;
    this.#sink(this.#content(joined, 0, joined.length), false);
  }

  #joined(): Buffer {
    return this.#carry.length === 1 ? (this.#carry[0] as Buffer) : Buffer.concat(this.#carry);
  }

  #content(bytes: Buffer, start: number, end: number): C {
    return (this.#raw ? bytes.subarray(start, end) : bytes.toString('utf8', start, end)) as C;
  }
}

/**
 * The largest index `<= index` at which `bytes` can be cut without splitting a UTF-8 character
 * (an invalid sequence may be cut anywhere). Used to cut over-long lines and the output cap.
 *
 * @example
 * ```ts
 * utf8Boundary(Buffer.from('a€'), 2); // 1: '€' is 3 bytes starting at 1
 * ```
 */
export function utf8Boundary(bytes: Uint8Array, index: number): number {
  if (index >= bytes.length) return bytes.length;
  if (index <= 0) return 0;
  let start = index;
  while (start > 0 && index - start < 3 && ((bytes[start] as number) & 0xc0) === 0x80) start -= 1;
  const lead = bytes[start] as number;
  if (lead < 0xc0) return index;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  return start + length > index ? start : index;
}
