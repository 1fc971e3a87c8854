import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textFrameEncoder } from '../../src/cli/text-frame-encoder.js';
import { bridgeCodec } from '../../src/kernel/protocol/bridge-codec.js';
import { encodeFrame } from '../../src/kernel/protocol/hostcall-frame.js';
import { streamChunk } from '../../src/kernel/protocol/hostcall-outcome.js';
import { serdeCodec } from '../../src/kernel/protocol/serde-codec.js';

describe('textFrameEncoder', () => {
  for (const codec of [bridgeCodec, serdeCodec]) {
    it(`writes exactly the frame encodeFrame writes (${codec.name})`, () => {
      fc.assert(
        fc.property(
          fc.string({ minLength: 1, maxLength: 12 }),
          fc.nat({ max: Number.MAX_SAFE_INTEGER }),
          fc.string({ unit: 'binary' }),
          (callId, sequence, text) => {
            const expected = encodeFrame({ callId, outcome: streamChunk(sequence, text, false) }, codec);
            expect(textFrameEncoder(callId, codec)(sequence, text)).toBe(expected);
          },
        ),
        { numRuns: 300 },
      );
    });
  }

  it('falls back to encodeFrame when the call id itself holds the stand-in sequence', () => {
    const callId = 'run-987654321012345';
    const encode = textFrameEncoder(callId, bridgeCodec);
    expect(encode(3, 'a "quoted" line\n')).toBe(
      encodeFrame({ callId, outcome: streamChunk(3, 'a "quoted" line\n', false) }, bridgeCodec),
    );
  });
});
