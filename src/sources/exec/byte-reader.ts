import type { BytePieceSink } from './byte-line-splitter.js';

/**
 * The `lines: false, encoding: 'buffer'` reader: one piece per read, the bytes exactly as the
 * child wrote them (nothing decoded, nothing copied). Empty reads are not emitted.
 *
 * @example
 * ```ts
 * const reader = new ByteReader((bytes) => process.stdout.write(bytes));
 * reader.push(Buffer.from([0xff, 0xfe, 0x0a])); // written unchanged
 * ```
 */
export class ByteReader {
  readonly #sink: BytePieceSink;

  constructor(sink: BytePieceSink) {
    this.#sink = sink;
  }

  push(bytes: Buffer): void {
    if (bytes.length > 0) this.#sink(bytes, false);
  }

  end(): void {}
}
