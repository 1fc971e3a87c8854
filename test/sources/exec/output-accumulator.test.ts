import { describe, expect, it } from 'vitest';
import { OutputAccumulator } from '../../../src/sources/exec/output-accumulator.js';

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
});
