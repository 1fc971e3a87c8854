import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BodyLineSplitter, type LinePiece } from '../../../src/sources/http/http-body.js';

const encode = (text: string) => new TextEncoder().encode(text);
const bytesOf = (text: string) => encode(text).byteLength;

function splitAll(chunks: Uint8Array[], maxLineBytes: number): LinePiece[] {
  const splitter = new BodyLineSplitter(maxLineBytes);
  const pieces = chunks.flatMap((chunk) => splitter.push(chunk));
  const rest = splitter.flush();
  return rest === undefined ? pieces : [...pieces, rest];
}

describe('BodyLineSplitter', () => {
  it('splits lines keeping their newline, and flushes a last line without one', () => {
    const splitter = new BodyLineSplitter(100);
    expect(splitter.push(encode('a\nbb\r\n\nc'))).toEqual([
      { text: 'a\n', partial: false },
      { text: 'bb\r\n', partial: false },
      { text: '\n', partial: false },
    ]);
    expect(splitter.push(encode('cc'))).toEqual([]);
    expect(splitter.flush()).toEqual({ text: 'ccc', partial: false });
    expect(splitter.flush()).toBeUndefined();
  });

  it('decodes a multi-byte character fed one byte at a time whole', () => {
    const chunks = [...encode('€😀\n')].map((byte) => Uint8Array.of(byte));
    expect(splitAll(chunks, 100)).toEqual([{ text: '€😀\n', partial: false }]);
  });

  it('turns invalid UTF-8 into replacement characters instead of throwing', () => {
    expect(splitAll([Uint8Array.of(0x61, 0xff, 0xc3, 0x0a)], 100)).toEqual([
      { text: 'a\uFFFD\uFFFD\n', partial: false },
    ]);
  });

  it('cuts a long line at character boundaries, every piece but the last partial', () => {
    const pieces = splitAll([encode('€€€\nok\n')], 4);
    expect(pieces).toEqual([
      { text: '€', partial: true },
      { text: '€', partial: true },
      { text: '€\n', partial: false },
      { text: 'ok\n', partial: false },
    ]);
  });

  it('a line of exactly maxLineBytes (newline included) is whole; one byte more is cut', () => {
    expect(splitAll([encode('abc\n')], 4)).toEqual([{ text: 'abc\n', partial: false }]);
    expect(splitAll([encode('abcd\n')], 4)).toEqual([
      { text: 'abcd', partial: true },
      { text: '\n', partial: false },
    ]);
  });

  it('keeps memory bounded on a huge line without newline', () => {
    const splitter = new BodyLineSplitter(1_000);
    let emitted = 0;
    for (let i = 0; i < 100; i++) {
      for (const piece of splitter.push(new Uint8Array(10_000).fill(0x78))) {
        expect(piece).toEqual({ text: 'x'.repeat(1_000), partial: true });
        emitted += 1;
      }
    }
    // The last 1 000 bytes wait: a newline might still come and make them a whole line.
    expect(emitted).toBe(999);
    expect(splitter.flush()).toEqual({ text: 'x'.repeat(1_000), partial: false });
  });

  it('property: pieces rebuild the text and its lines, each within the limit, however the bytes are cut', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 30 }), { maxLength: 8 }),
        fc.array(fc.nat({ max: 200 }), { maxLength: 10 }),
        fc.integer({ min: 4, max: 40 }),
        (lines, cuts, maxLineBytes) => {
          const bytes = encode(lines.join('\n'));
          const text = new TextDecoder().decode(bytes); // lone surrogates normalised the way the encoder did
          const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
          const chunks = [0, ...points, bytes.length]
            .slice(1)
            .map((end, index, ends) => bytes.subarray(index === 0 ? 0 : ends[index - 1], end));
          const pieces = splitAll(chunks, maxLineBytes);
          expect(pieces.map((piece) => piece.text).join('')).toBe(text);
          for (const piece of pieces) expect(bytesOf(piece.text)).toBeLessThanOrEqual(maxLineBytes);
          const rebuilt: string[] = [];
          let current = '';
          for (const piece of pieces) {
            current += piece.text;
            if (!piece.partial) {
              rebuilt.push(current);
              current = '';
            }
          }
          expect(current).toBe('');
          const expected = text === '' ? [] : text.split(/(?<=\n)/);
          expect(rebuilt).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
