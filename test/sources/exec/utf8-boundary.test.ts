import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Boundary } from '../../../src/sources/exec/utf8-boundary.js';

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
