import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Boundary } from '../../../src/sources/exec/line-splitter.js';
import { OutputAccumulator } from '../../../src/sources/exec/output-accumulator.js';

/** Bytes that make multi-byte characters, stray continuations and cut sequences likely. */
const utf8ish = fc.oneof(
  fc.integer({ min: 0, max: 255 }),
  fc.constantFrom(0x61, 0x0a, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xbf, 0xed, 0xa0),
);

describe('OutputAccumulator', () => {
  it('is exact: the cap is not truncated, one byte more is', () => {
    const exact = new OutputAccumulator(5);
    exact.add(Buffer.from('abc'));
    exact.add(Buffer.from('de'));
    expect([exact.text(), exact.truncated]).toEqual(['abcde', false]);
    exact.add(Buffer.from('f'));
    expect([exact.text(), exact.truncated]).toEqual(['abcde', true]);
  });

  it('cuts the crossing write at a UTF-8 boundary and keeps nothing after a cut', () => {
    const output = new OutputAccumulator(5);
    output.add(Buffer.from('abcd€'));
    output.add(Buffer.from('x'));
    expect([output.text(), output.truncated]).toEqual(['abcd', true]);
  });

  it('keeps nothing with a cap of 0', () => {
    const output = new OutputAccumulator(0);
    expect([output.text(), output.truncated]).toEqual(['', false]);
    output.add(Buffer.from('a'));
    expect([output.text(), output.truncated]).toEqual(['', true]);
  });

  it('keeps what one buffer of the whole output cut at the cap would give, however it was written', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(utf8ish, { maxLength: 12 }), { maxLength: 8 }),
        fc.nat(40),
        (writes, cap) => {
          const output = new OutputAccumulator(cap);
          for (const write of writes) output.add(Uint8Array.from(write));
          const all = Buffer.from(writes.flat());
          const kept = all.length <= cap ? all : all.subarray(0, utf8Boundary(all, cap));
          expect(output.text()).toBe(kept.toString('utf8'));
          expect(output.truncated).toBe(all.length > cap);
          expect(output.total).toBe(all.length);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
