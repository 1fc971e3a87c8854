import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bridgeCodec } from '../../../src/kernel/protocol/bridge-codec.js';
import { decodeFrame, encodeFrame } from '../../../src/kernel/protocol/hostcall-frame.js';
import { failure, streamChunk, success } from '../../../src/kernel/protocol/hostcall-outcome.js';
import { serdeCodec } from '../../../src/kernel/protocol/serde-codec.js';
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

describe('decodeFrame', () => {
  it('decodes a line of either codec, ignoring a trailing \\r', () => {
    expect(decodeFrame('{"call_id":"hc-42","outcome":{"Success":{"a":1}}}\r', serdeCodec)).toEqual({
      callId: 'hc-42',
      outcome: success({ a: 1 }),
    });
    expect(
      decodeFrame(
        '{"callId":"hc-9","outcome":{"ok":true,"stream":true,"sequence":3,"isFinal":true,"chunk":null}}',
        bridgeCodec,
      ),
    ).toEqual({ callId: 'hc-9', outcome: streamChunk(3, null, true) });
  });

  it('round-trips the largest safe sequence and rejects the integers past it, written as digits', () => {
    const line = (digits: string) =>
      `{"call_id":"c","outcome":{"StreamChunk":{"sequence":${digits},"chunk":1,"is_final":false}}}`;
    expect(decodeFrame(line('9007199254740991'), serdeCodec).outcome).toEqual(
      streamChunk(Number.MAX_SAFE_INTEGER, 1, false),
    );
    expectInvalidFrame(
      () => decodeFrame(line('9007199254740993'), serdeCodec),
      'Invalid frame: `outcome.StreamChunk.sequence` must be a non-negative safe integer, got 9007199254740992 (number)',
    );
  });

  it('rejects a sequence JSON.parse would round or that is not written as an integer', () => {
    const line = (digits: string) =>
      `{"call_id":"c","outcome":{"StreamChunk":{"sequence":${digits},"chunk":1,"is_final":false}}}`;
    for (const digits of ['1.0', '1e0', '5.0000000000000001', '9007199254740990.9999']) {
      expectInvalidFrame(
        () => decodeFrame(line(digits), serdeCodec),
        `Invalid frame: \`outcome.StreamChunk.sequence\` must be written as a plain integer, got "${digits}" (string)`,
        'outcome.StreamChunk.sequence',
      );
    }
    expectInvalidFrame(
      () =>
        decodeFrame(
          '{"callId":"c","outcome":{"ok":true,"stream":true,"sequence":2E0,"isFinal":true,"chunk":null}}',
          bridgeCodec,
        ),
      'Invalid frame: `outcome.sequence` must be written as a plain integer, got "2E0" (string)',
    );
  });

  it('is not fooled by sequence-like numbers inside the chunk', () => {
    const text =
      '{"call_id":"c","outcome":{"StreamChunk":{"chunk":{"sequence":1.5,"t":"\\"sequence\\":2.5"},"sequence":4,"is_final":true}}}';
    expect(decodeFrame(text, serdeCodec).outcome).toEqual(
      streamChunk(4, { sequence: 1.5, t: '"sequence":2.5' }, true),
    );
  });

  const serdeLines: ReadonlyArray<readonly [string, string, string]> = [
    ['an empty line', '', 'the frame is not valid JSON (Unexpected end of JSON input), got "" (string)'],
    ['truncated JSON', '{"call_id":"c","outcome":{"Succ', 'the frame is not valid JSON'],
    ['a JSON array', '[1,2]', 'the frame must be a JSON object, got [1,2] (array)'],
    ['a JSON string', '"hello"', 'the frame must be a JSON object, got "hello" (string)'],
    ['no call id', '{"outcome":{"Success":1}}', '`call_id` must be a non-empty string, got nothing'],
    [
      'the bridge call id key',
      '{"callId":"c","outcome":{"Success":1}}',
      '`call_id` must be a non-empty string, got nothing',
    ],
    [
      'an empty call id',
      '{"call_id":"","outcome":{"Success":1}}',
      '`call_id` must be a non-empty string, got "" (string)',
    ],
    [
      'a numeric call id',
      '{"call_id":42,"outcome":{"Success":1}}',
      '`call_id` must be a non-empty string, got 42 (number)',
    ],
    ['no outcome', '{"call_id":"c"}', '`outcome` is required, got nothing'],
    [
      'an extra key',
      '{"call_id":"c","outcome":{"Success":1},"seq":4}',
      '`seq` is not a known field, got 4 (number)',
    ],
    [
      'a bad sequence',
      '{"call_id":"c","outcome":{"StreamChunk":{"sequence":-1,"chunk":1,"is_final":true}}}',
      '`outcome.StreamChunk.sequence` must be a non-negative safe integer, got -1 (number)',
    ],
  ];

  it.each(serdeLines)('rejects %s with a message naming the field', (_name, line, message) => {
    let thrown: unknown;
    try {
      decodeFrame(line, serdeCodec);
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error).message.startsWith(`Invalid frame: ${message}`)).toBe(true);
    expect((thrown as { code: string }).code).toBe('INVALID_FRAME');
  });

  it('names the bridge call id key for bridge frames', () => {
    expectInvalidFrame(
      () => decodeFrame('{"call_id":"c","outcome":{"ok":true,"value":1}}', bridgeCodec),
      'Invalid frame: `callId` must be a non-empty string, got nothing',
      'callId',
    );
  });
});
