import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rawNumberToken } from '../../../src/kernel/protocol/json-scan.js';
import { jsonArbitrary } from './outcome-arbitraries.js';

describe('rawNumberToken', () => {
  it('returns the text of the number at the path, exactly as written', () => {
    expect(rawNumberToken('{"outcome":{"sequence":1.0}}', ['outcome', 'sequence'])).toBe('1.0');
    expect(rawNumberToken('{ "outcome" : { "sequence" : -12e+3 } }', ['outcome', 'sequence'])).toBe('-12e+3');
    expect(rawNumberToken('{"outcome":{"sequence":"1"}}', ['outcome', 'sequence'])).toBeUndefined();
  });

  it('ignores look-alikes inside strings, nested values and arrays, and takes the last duplicate', () => {
    const text =
      '{"outcome":{"chunk":{"sequence":1.5,"s":"\\"sequence\\":2.5","list":[{"sequence":3.5}]},' +
      '"k\\\\":"x","sequence":7,"sequence":8}}';
    expect(JSON.parse(text).outcome.sequence).toBe(8);
    expect(rawNumberToken(text, ['outcome', 'sequence'])).toBe('8');
    expect(rawNumberToken(text, ['outcome', 'chunk', 'sequence'])).toBe('1.5');
  });

  it('skips escaped quotes inside strings', () => {
    const text = JSON.stringify({ outcome: { sequence: 4, chunk: 'a\\","sequence":1.5,"b":"c' } });
    expect(rawNumberToken(text, ['outcome', 'sequence'])).toBe('4');
  });

  it('agrees with JSON.parse on the sequence of any frame, whatever surrounds it', () => {
    fc.assert(
      fc.property(jsonArbitrary, fc.maxSafeNat(), jsonArbitrary, (before, sequence, after) => {
        const text = JSON.stringify({ outcome: { before, sequence, after }, sequence: 0.5 }, null, 1);
        expect(rawNumberToken(text, ['outcome', 'sequence'])).toBe(String(sequence));
      }),
      { numRuns: 300 },
    );
  });
});
