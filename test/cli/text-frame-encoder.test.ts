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

  it('escapes what JSON.stringify escapes, on the plain-line fast path and off it', () => {
    const encode = textFrameEncoder('call-1', bridgeCodec);
    const texts = [
      'plain line\n',
      'no newline',
      '',
      '\n',
      'two\n\n',
      'crlf\r\n',
      'tab\there\n',
      'a "quoted" line\n',
      'back\\slash\n',
      'caf\u00e9 \u2028 \u007f\n',
      'pair \ud83d\ude00\n',
      'lone \ud800 high\n',
      'lone \udc00 low',
      '\u0000nul\n',
    ];
    for (const text of texts) {
      const expected = encodeFrame({ callId: 'call-1', outcome: streamChunk(7, text, false) }, bridgeCodec);
      expect(encode(7, text)).toBe(expected);
      expect(JSON.parse(encode(7, text)).outcome.chunk).toBe(text);
    }
  });

  it('falls back to encodeFrame when the call id itself holds the stand-in sequence', () => {
    const callId = 'run-987654321012345';
    const encode = textFrameEncoder(callId, bridgeCodec);
    expect(encode(3, 'a "quoted" line\n')).toBe(
      encodeFrame({ callId, outcome: streamChunk(3, 'a "quoted" line\n', false) }, bridgeCodec),
    );
  });
});
