import { StringDecoder } from 'node:string_decoder';
import { utf8Boundary } from './line-splitter.js';

/**
 * Keeps the first `cap` bytes a pipe wrote, for the result. Past the cap it only counts:
 * `truncated` is exact (exactly `cap` bytes is not truncated, one more is). The write that crosses
 * the cap is kept up to the cap, cut at a UTF-8 boundary; nothing after a cut is kept, so the text
 * is always a prefix of the output.
 */
export class OutputAccumulator {
  readonly #cap: number;
  #chunks: Uint8Array[] = [];
  #kept = 0;
  #total = 0;
  #full = false;

  constructor(cap: number) {
    this.#cap = cap;
  }

  /** How many bytes were written, kept or not. */
  get total(): number {
    return this.#total;
  }

  /** Whether more than `cap` bytes were written. */
  get truncated(): boolean {
    return this.#total > this.#cap;
  }

  add(bytes: Uint8Array): void {
    this.#total += bytes.length;
    if (this.#full) return;
    const room = this.#cap - this.#kept;
    if (bytes.length <= room) {
      this.#chunks.push(bytes);
      this.#kept += bytes.length;
      return;
    }
    this.#full = true;
    // The boundary depends on the three bytes before the cap at most: with that many of this write
    // before it, the write alone decides, and nothing is copied.
    if (room >= 3) {
      const cut = utf8Boundary(bytes, room);
      this.#chunks.push(bytes.subarray(0, cut));
      this.#kept += cut;
      return;
    }
    const joined = Buffer.concat([...this.#chunks, bytes]);
    const cut = utf8Boundary(joined, this.#cap);
    this.#chunks = [joined.subarray(0, cut)];
    this.#kept = cut;
  }

  /**
   * The kept bytes, decoded (invalid bytes become U+FFFD), as `Buffer.concat(kept).toString()`
   * would, one kept write at a time: a character cut between two writes is carried by the
   * decoder. A quarter-megabyte buffer and string made at once take fresh pages from the OS,
   * which made this the larger part of a full run's end (docs/performance.md, "Kept output, a write at a time").
   */
  text(): string {
    if (this.#chunks.length === 0) return '';
    const decoder = new StringDecoder('utf8');
    let text = '';
    for (const chunk of this.#chunks) text += decoder.write(chunk);
    return text + decoder.end();
  }
}
