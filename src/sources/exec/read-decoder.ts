import type { PieceSink } from './utf8-line-splitter.js';

/**
 * The `lines: false` counterpart of {@link Utf8LineSplitter}: one piece per read, decoded with a
 * streaming `TextDecoder` so a multi-byte character split across two reads decodes whole (its
 * bytes go with the later read). Invalid bytes become U+FFFD; empty pieces are not emitted.
 *
 * @example
 * ```ts
 * const decoder = new ReadDecoder((text) => console.log(text));
 * decoder.push(Buffer.from([0xe2, 0x82]));
 * decoder.push(Buffer.from([0xac, 0x0a])); // logs '€\n'
 * decoder.end();
 * ```
 */
export class ReadDecoder {
  readonly #decoder = new TextDecoder('utf-8', { fatal: false });
  readonly #sink: PieceSink;

  constructor(sink: PieceSink) {
    this.#sink = sink;
  }

  push(bytes: Uint8Array): void {
    const text = this.#decoder.decode(bytes, { stream: true });
    if (text.length > 0) this.#sink(text, false);
  }

  end(): void {
    const text = this.#decoder.decode();
    if (text.length > 0) this.#sink(text, false);
  }
}
