import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteLineSplitter } from '../../../src/sources/exec/byte-line-splitter.js';

function split(reads: number[][], max: number): [number[], boolean][] {
  const out: [number[], boolean][] = [];
  const splitter = new ByteLineSplitter(max, (bytes, partial) => out.push([[...bytes], partial]));
  for (const read of reads) splitter.push(Buffer.from(read));
  splitter.end();
  return out;
}

describe('ByteLineSplitter', () => {
  it('splits on newlines, keeps bytes as written, and emits a last line without one at the end', () => {
    expect(
      split(
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
      split(
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
          const pieces = split(
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
