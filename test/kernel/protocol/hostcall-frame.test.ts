import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bridgeCodec,
  decodeFrame,
  encodeFrame,
  failure,
  serdeCodec,
  streamChunk,
} from '../../../src/kernel/protocol/index.js';
import { expectInvalidFrame } from './expect-invalid-frame.js';
import { callIdArbitrary, outcomeArbitrary } from './outcome-arbitraries.js';

describe('encodeFrame', () => {
  it('writes one line per frame, with the codec shape and call id key', () => {
    expect(encodeFrame({ callId: 'hc-42', outcome: streamChunk(0, 'line 1\n', false) }, serdeCodec)).toBe(
      '{"call_id":"hc-42","outcome":{"StreamChunk":{"sequence":0,"chunk":"line 1\\n","is_final":false}}}\n',
    );
    expect(
      encodeFrame({ callId: 'hc-42', outcome: failure('EXEC_FAILED', 'exit code 1') }, bridgeCodec),
    ).toBe('{"callId":"hc-42","outcome":{"ok":false,"code":"EXEC_FAILED","message":"exit code 1"}}\n');
  });

  it('round-trips any frame through decodeFrame with a single newline at the end', () => {
    fc.assert(
      fc.property(
        callIdArbitrary,
        outcomeArbitrary,
        fc.constantFrom(bridgeCodec, serdeCodec),
        (callId, outcome, codec) => {
          const line = encodeFrame({ callId, outcome }, codec);
          expect(line.indexOf('\n')).toBe(line.length - 1);
          expect(decodeFrame(line.slice(0, -1), codec)).toEqual({ callId, outcome });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses an empty call id or an invalid outcome', () => {
    expectInvalidFrame(
      () => encodeFrame({ callId: '', outcome: streamChunk(0, null, true) }, serdeCodec),
      'Invalid frame: `call_id` must be a non-empty string, got "" (string)',
    );
    expectInvalidFrame(
      () => encodeFrame({ callId: 'hc-1', outcome: streamChunk(-1, null, true) }, bridgeCodec),
      'Invalid frame: `outcome.sequence` must be a non-negative safe integer, got -1 (number)',
    );
  });

  it('refuses a value too deep to serialise with a typed error', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expectInvalidFrame(
      () => encodeFrame({ callId: 'hc-1', outcome: streamChunk(0, deep as never, true) }, serdeCodec),
      'Invalid frame: `outcome` could not be serialised, got nothing',
    );
  });

  it('throws nothing but InvalidFrameError for a frame or an outcome whose getters throw', () => {
    const frame = {
      callId: 'hc-1',
      get outcome(): never {
        throw new Error('frame getter');
      },
    };
    expectInvalidFrame(
      () => encodeFrame(frame, bridgeCodec),
      'Invalid frame: the frame could not be read, got nothing',
    );
    const outcome = {
      type: 'success',
      get value(): never {
        throw new Error('value getter');
      },
    };
    expectInvalidFrame(
      () => encodeFrame({ callId: 'hc-1', outcome: outcome as never }, serdeCodec),
      'Invalid frame: `outcome` could not be read (value getter), got nothing',
    );
    expectInvalidFrame(
      () => encodeFrame(null as never, serdeCodec),
      'Invalid frame: the frame could not be read, got nothing',
    );
  });
});
