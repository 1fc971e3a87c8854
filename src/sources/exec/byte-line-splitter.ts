/** Receives the pieces a byte splitter produces: a line's bytes (or a piece of them), and whether it is partial. */
export type BytePieceSink = (bytes: Uint8Array, partial: boolean) => void;

/**
 * The `encoding: 'buffer'` counterpart of `Utf8LineSplitter`: splits one pipe's bytes into lines, each
 * with its `\n`, as bytes, exactly as the child wrote them (nothing is decoded, so invalid UTF-8
 * passes through). A line longer than `maxLineBytes` is cut into pieces of exactly that many
 * bytes, all but the last `partial`. A single-read line is a view of the read, not a copy.
 *
 * @example
 * ```ts
 * const splitter = new ByteLineSplitter(65536, (bytes, partial) => console.log(bytes, partial));
 * splitter.push(Buffer.from([0x61, 0x0a, 0xff]));
 * splitter.end(); // logs <61 0a> false, then <ff> false
 * ```
 */
export class ByteLineSplitter {
  readonly #max: number;
  readonly #sink: BytePieceSink;
  #carry: Buffer[] = [];
  #carryLength = 0;

  constructor(maxLineBytes: number, sink: BytePieceSink) {
    this.#max = maxLineBytes;
    this.#sink = sink;
  }

  push(bytes: Buffer): void {
    let start = 0;
    for (let newline = bytes.indexOf(10); newline !== -1; newline = bytes.indexOf(10, start)) {
      const end = newline + 1;
      if (this.#carryLength === 0 && end - start <= this.#max) this.#sink(bytes.subarray(start, end), false);
      else {
        this.#keep(bytes.subarray(start, end));
        this.#flush();
      }
      start = end;
    }
    if (start < bytes.length) this.#keep(bytes.subarray(start));
  }

  /** The pipe ended: emits a last line that had no newline. */
  end(): void {
    if (this.#carryLength > 0) this.#flush();
  }

  #keep(bytes: Buffer): void {
    this.#carry.push(bytes);
    this.#carryLength += bytes.length;
    if (this.#carryLength <= this.#max) return;
    const joined = Buffer.concat(this.#carry, this.#carryLength);
    let offset = 0;
    while (joined.length - offset > this.#max) {
      this.#sink(joined.subarray(offset, offset + this.#max), true);
      offset += this.#max;
    }
    this.#carry = [joined.subarray(offset)];
    this.#carryLength = joined.length - offset;
  }

  #flush(): void {
    const joined = this.#carry.length === 1 ? (this.#carry[0] as Buffer) : Buffer.concat(this.#carry);
    this.#carry = [];
    this.#carryLength = 0;
    this.#sink(joined, false);
  }
}
