import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter, utf8Boundary } from '../../../src/sources/exec/line-splitter.js';

function split(chunks: Buffer[], max: number): [string, boolean][] {
  const pieces: [string, boolean][] = [];
  const splitter = new LineSplitter(max, (text, partial) => pieces.push([text, partial]));
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return pieces;
}

describe('LineSplitter', () => {
  it('splits lines across reads, keeping the newline, and emits a last line without one', () => {
    expect(split([Buffer.from('a\nb'), Buffer.from('c\n\nd')], 100)).toEqual([
      ['a\n', false],
      ['bc\n', false],
      ['\n', false],
      ['d', false],
    ]);
  });

  it('decodes a multi-byte character split across reads whole', () => {
    const bytes = Buffer.from('x€y\n');
    expect(split([bytes.subarray(0, 2), bytes.subarray(2, 3), bytes.subarray(3)], 100)).toEqual([
      ['x€y\n', false],
    ]);
  });

  it('cuts a line at exactly maxLineBytes: a line of max bytes is whole, one more byte is two pieces', () => {
    expect(split([Buffer.from('abcd\n')], 5)).toEqual([['abcd\n', false]]);
    expect(split([Buffer.from('abcde\n')], 5)).toEqual([
      ['abcde', true],
      ['\n', false],
    ]);
  });

  it('rebuilds the input exactly, and no piece exceeds maxLineBytes (property)', () => {
    const text = fc
      .array(fc.constantFrom('a', 'é', '€', '😀', '\n', '\uFFFD'), { maxLength: 200 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(
        text,
        fc.array(fc.nat(300), { maxLength: 6 }),
        fc.integer({ min: 4, max: 40 }),
        (input, cuts, max) => {
          const chunks = cutAt(Buffer.from(input), cuts);
          const pieces = split(chunks, max);
          expect(pieces.map(([piece]) => piece).join('')).toBe(input);
          for (const [piece, partial] of pieces) {
            expect(Buffer.byteLength(piece)).toBeLessThanOrEqual(max);
            expect(piece.includes('\n')).toBe(!partial && piece.endsWith('\n'));
          }
        },
      ),
    );
  });

  it('splits any bytes (ASCII fast path or not) exactly as one byte per read does (property)', () => {
    const fragment = fc.oneof(
      { arbitrary: fc.integer({ min: 32, max: 126 }).map((value) => [value]), weight: 6 },
      { arbitrary: fc.constant([10]), weight: 2 },
      { arbitrary: fc.constantFrom('é', '€', '😀').map((char) => [...Buffer.from(char)]), weight: 1 },
      { arbitrary: fc.integer({ min: 128, max: 255 }).map((value) => [value]), weight: 1 },
    );
    fc.assert(
      fc.property(
        fc.array(fragment, { maxLength: 200 }),
        fc.array(fc.nat(300), { maxLength: 6 }),
        fc.integer({ min: 4, max: 40 }),
        (fragments, cuts, max) => {
          const bytes = Buffer.from(fragments.flat());
          const chunks = cutAt(bytes, cuts);
          // One byte per read: every line but an empty one goes through the carry (the slow path).
          const oneByOne = [...bytes].map((value) => Buffer.from([value]));
          expect(split(chunks, max)).toEqual(split(oneByOne, max));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('takes the ASCII fast path for a read of whole ASCII lines, cutting an over-long one', () => {
    expect(split([Buffer.from('ab\ncdefgh\nij\nk')], 4)).toEqual([
      ['ab\n', false],
      ['cdef', true],
      ['gh\n', false],
      ['ij\n', false],
      ['k', false],
    ]);
  });
});

describe('utf8Boundary', () => {
  it('moves a cut inside a character back to its start', () => {
    const bytes = Buffer.from('a€b');
    expect([0, 1, 2, 3, 4, 5, 9].map((index) => utf8Boundary(bytes, index))).toEqual([0, 1, 1, 1, 4, 5, 5]);
  });

  it('cuts invalid bytes anywhere', () => {
    expect(utf8Boundary(Buffer.from([0x61, 0x80, 0x80, 0x80, 0x80, 0x62]), 4)).toBe(4);
  });

  it('never splits a character of valid text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.nat(200), (text, index) => {
        const bytes = Buffer.from(text);
        const cut = utf8Boundary(bytes, index);
        expect(cut).toBeLessThanOrEqual(Math.min(index, bytes.length));
        expect(cut).toBeGreaterThan(Math.min(index, bytes.length) - 4);
        const head = bytes.subarray(0, cut).toString('utf8');
        // A split character would decode as U+FFFD, which re-encodes to other bytes (the text
        // itself may hold U+FFFD, so looking for it is not enough).
        expect(Buffer.byteLength(head)).toBe(cut);
        expect(text.startsWith(head)).toBe(true);
      }),
    );
  });
});

function splitBytes(reads: number[][], max: number): [number[], boolean][] {
  const out: [number[], boolean][] = [];
  const splitter = new LineSplitter<Uint8Array>(
    max,
    (bytes, partial) => out.push([[...bytes], partial]),
    'buffer',
  );
  for (const read of reads) splitter.push(Buffer.from(read));
  splitter.end();
  return out;
}

describe("LineSplitter with encoding 'buffer'", () => {
  it('splits on newlines, keeps bytes as written, and emits a last line without one at the end', () => {
    expect(
      splitBytes(
        [
          [0x61, 0x0a, 0xff, 0xfe],
          [0x0a, 0x62],
        ],
        100,
      ),
    ).toEqual([
      [[0x61, 0x0a], false],
      [[0xff, 0xfe, 0x0a], false],
      [[0x62], false],
    ]);
  });

  it('cuts a long line into pieces of exactly maxLineBytes, all but the last partial', () => {
    expect(
      splitBytes(
        [
          [1, 2, 3],
          [4, 5, 0x0a, 6],
        ],
        2,
      ),
    ).toEqual([
      [[1, 2], true],
      [[3, 4], true],
      [[5, 0x0a], false],
      [[6], false],
    ]);
  });

  it('gives back every byte, in order, however the reads are cut', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 20 }), { maxLength: 10 }),
        fc.integer({ min: 1, max: 8 }),
        (reads, max) => {
          const pieces = splitBytes(
            reads.map((read) => [...read].map((byte) => (byte % 3 === 0 ? 0x0a : byte))),
            max,
          );
          const all = reads.flatMap((read) => [...read].map((byte) => (byte % 3 === 0 ? 0x0a : byte)));
          expect(pieces.flatMap(([bytes]) => bytes)).toEqual(all);
          for (const [bytes, partial] of pieces) {
            expect(bytes.length).toBeLessThanOrEqual(max);
            expect(bytes.length).toBeGreaterThan(0);
            if (!partial) expect(bytes.slice(0, -1)).not.toContain(0x0a);
          }
        },
      ),
    );
  });
});

/** `bytes` cut into reads at the given offsets (taken modulo its length + 1, in order). */
function cutAt(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  return chunks;
}
