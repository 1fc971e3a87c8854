import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bridgeCodec } from '../../../src/kernel/protocol/bridge-codec.js';
import { failure, streamChunk, success } from '../../../src/kernel/protocol/hostcall-outcome.js';
import { expectInvalidFrame } from './expect-invalid-frame.js';
import { outcomeArbitrary } from './outcome-arbitraries.js';

const cycle: Record<string, unknown> = {};
cycle.self = cycle;
const hostile = new Proxy(
  {},
  {
    get() {
      throw new Error('boom');
    },
  },
);
const chunk = (fields: Record<string, unknown>) => ({
  ok: true,
  stream: true,
  sequence: 0,
  isFinal: false,
  chunk: 'a',
  ...fields,
});

describe('bridgeCodec', () => {
  it('encodes each variant in the shape a JS bridge consumes', () => {
    expect(bridgeCodec.encode(success({ exit: 0 }))).toEqual({ ok: true, value: { exit: 0 } });
    expect(bridgeCodec.encode(failure('EXEC_FAILED', 'exit code 1'))).toEqual({
      ok: false,
      code: 'EXEC_FAILED',
      message: 'exit code 1',
    });
    expect(bridgeCodec.encode(streamChunk(2, 'done\n', true))).toEqual({
      ok: true,
      stream: true,
      sequence: 2,
      isFinal: true,
      chunk: 'done\n',
    });
    expect(bridgeCodec.encode(success(null))).toEqual({ ok: true, value: null });
  });

  it('decodes the streaming-hostcall shape of a chunk, which has no `ok`, and still encodes with it', () => {
    const documented = { stream: true, sequence: 3, chunk: { line: 'a' }, isFinal: true };
    expect(bridgeCodec.decode(documented)).toEqual(streamChunk(3, { line: 'a' }, true));
    expect(bridgeCodec.encode(bridgeCodec.decode(documented))).toEqual({ ok: true, ...documented });
    expectInvalidFrame(
      () => bridgeCodec.decode({ stream: true, sequence: 0, chunk: null }),
      'Invalid frame: `outcome.isFinal` must be a boolean, got nothing',
    );
  });

  it('encodes nothing but InvalidFrameError, even for an outcome whose getter throws', () => {
    const throwing = {
      type: 'streamChunk',
      sequence: 0,
      isFinal: false,
      get chunk(): never {
        throw new Error('getter exploded');
      },
    };
    expectInvalidFrame(
      () => bridgeCodec.encode(throwing as never),
      'Invalid frame: `outcome` could not be read (getter exploded), got nothing',
    );
    expectInvalidFrame(
      () => bridgeCodec.encode(hostile as never),
      'Invalid frame: `outcome` could not be read (boom), got nothing',
    );
  });

  it('round-trips every outcome, in memory and through JSON text', () => {
    fc.assert(
      fc.property(outcomeArbitrary, (outcome) => {
        expect(bridgeCodec.decode(bridgeCodec.encode(outcome))).toEqual(outcome);
        const text = JSON.stringify(bridgeCodec.encode(outcome));
        expect(bridgeCodec.decode(JSON.parse(text))).toEqual(outcome);
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips sequence Number.MAX_SAFE_INTEGER and rejects the next integers', () => {
    const max = Number.MAX_SAFE_INTEGER;
    expect(
      bridgeCodec.decode(JSON.parse(JSON.stringify(bridgeCodec.encode(streamChunk(max, null, true))))),
    ).toEqual(streamChunk(max, null, true));
    for (const [text, shown] of [
      ['9007199254740992', '9007199254740992'],
      ['9007199254740993', '9007199254740992'],
      ['18446744073709551615', '18446744073709552000'],
      ['1e300', '1e+300'],
    ] as const) {
      expectInvalidFrame(
        () =>
          bridgeCodec.decode(
            JSON.parse(`{"ok":true,"stream":true,"sequence":${text},"isFinal":true,"chunk":null}`),
          ),
        `Invalid frame: \`outcome.sequence\` must be a non-negative safe integer, got ${shown} (number)`,
        'outcome.sequence',
      );
    }
    expectInvalidFrame(
      () => bridgeCodec.encode(streamChunk(max + 1, null, true)),
      'Invalid frame: `outcome.sequence` must be a non-negative safe integer, got 9007199254740992 (number)',
    );
  });

  const malformed: ReadonlyArray<readonly [string, unknown, string]> = [
    ['null', null, '`outcome` must be an object, got null (null)'],
    ['a string', 'ok', '`outcome` must be an object, got "ok" (string)'],
    ['an array', [true], '`outcome` must be an object, got [true] (array)'],
    ['no ok', { value: 1 }, '`outcome.ok` must be a boolean, got nothing'],
    ['ok as a string', { ok: 'true', value: 1 }, '`outcome.ok` must be a boolean, got "true" (string)'],
    ['success without value', { ok: true }, '`outcome.value` must be a JSON value, got nothing'],
    [
      'success with an extra key',
      { ok: true, value: 1, extra: 2 },
      '`outcome.extra` is not a known field, got 2 (number)',
    ],
    [
      'a NaN value',
      { ok: true, value: Number.NaN },
      '`outcome.value` must be a finite number, got NaN (number)',
    ],
    [
      'an undefined inside the value',
      { ok: true, value: { list: [1, undefined] } },
      '`outcome.value.list[1]` must be a JSON value, got nothing',
    ],
    [
      'a Date value',
      { ok: true, value: new Date(0) },
      '`outcome.value` must be a plain object, got "1970-01-01T00:00:00.000Z" (object)',
    ],
    [
      'a bigint value',
      { ok: true, value: { n: 10n } },
      '`outcome.value.n` must be a JSON value, got 10 (bigint)',
    ],
    [
      'a cyclic value',
      { ok: true, value: cycle },
      '`outcome.value.self` must not contain a cycle, got [a value that cannot be shown] (object)',
    ],
    [
      'error without code',
      { ok: false, message: 'm' },
      '`outcome.code` must be a non-empty string, got nothing',
    ],
    [
      'error with empty code',
      { ok: false, code: '', message: 'm' },
      '`outcome.code` must be a non-empty string, got "" (string)',
    ],
    [
      'error with numeric code',
      { ok: false, code: 1, message: 'm' },
      '`outcome.code` must be a non-empty string, got 1 (number)',
    ],
    [
      'error with null message',
      { ok: false, code: 'E', message: null },
      '`outcome.message` must be a string, got null (null)',
    ],
    [
      'error with a value',
      { ok: false, code: 'E', message: 'm', value: 1 },
      '`outcome.value` is not a known field, got 1 (number)',
    ],
    [
      'error flagged as stream',
      { ok: false, code: 'E', message: 'm', stream: true },
      '`outcome.ok` must be true when present, got false (boolean)',
    ],
    [
      'stream: false',
      chunk({ stream: false }),
      '`outcome.stream` must be true when present, got false (boolean)',
    ],
    [
      'negative sequence',
      chunk({ sequence: -1 }),
      '`outcome.sequence` must be a non-negative safe integer, got -1 (number)',
    ],
    [
      'fractional sequence',
      chunk({ sequence: 1.5 }),
      '`outcome.sequence` must be a non-negative safe integer, got 1.5 (number)',
    ],
    [
      'sequence 2**53',
      chunk({ sequence: 2 ** 53 }),
      '`outcome.sequence` must be a non-negative safe integer, got 9007199254740992 (number)',
    ],
    [
      'sequence as a string',
      chunk({ sequence: '0' }),
      '`outcome.sequence` must be a non-negative safe integer, got "0" (string)',
    ],
    [
      'sequence missing',
      chunk({ sequence: undefined }),
      '`outcome.sequence` must be a non-negative safe integer, got nothing',
    ],
    [
      'isFinal as a string',
      chunk({ isFinal: 'yes' }),
      '`outcome.isFinal` must be a boolean, got "yes" (string)',
    ],
    [
      'is_final instead of isFinal',
      { ...chunk({ isFinal: undefined }), is_final: true },
      '`outcome.isFinal` must be a boolean, got nothing',
    ],
    ['chunk missing', chunk({ chunk: undefined }), '`outcome.chunk` must be a JSON value, got nothing'],
    [
      'an infinite chunk',
      chunk({ chunk: [Number.POSITIVE_INFINITY] }),
      '`outcome.chunk[0]` must be a finite number, got Infinity (number)',
    ],
    [
      'a function chunk',
      chunk({ chunk: { f: () => 1 } }),
      '`outcome.chunk.f` must be a JSON value, got () => 1 (function)',
    ],
    [
      'a stream chunk with a value',
      chunk({ value: 1 }),
      '`outcome.value` is not a known field, got 1 (number)',
    ],
    ['a hostile object', hostile, '`outcome` could not be read (boom), got nothing'],
  ];

  it.each(malformed)('rejects %s with a message naming the field', (_name, input, message) => {
    expectInvalidFrame(() => bridgeCodec.decode(input), `Invalid frame: ${message}`);
  });

  it('names fields under the prefix it is given', () => {
    expectInvalidFrame(
      () => bridgeCodec.decode({ ok: 1 }, 'frames[3].outcome'),
      'Invalid frame: `frames[3].outcome.ok` must be a boolean, got 1 (number)',
      'frames[3].outcome.ok',
    );
  });

  it('safeDecode returns the outcome or the error without throwing', () => {
    expect(bridgeCodec.safeDecode({ ok: true, value: 'x' })).toEqual({ success: true, data: success('x') });
    const result = bridgeCodec.safeDecode(hostile);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.code).toBe('INVALID_FRAME');
  });

  it('refuses to encode an invalid outcome', () => {
    expectInvalidFrame(
      () => bridgeCodec.encode(streamChunk(0, Number.NaN, false)),
      'Invalid frame: `outcome.chunk` must be a finite number, got NaN (number)',
    );
    expectInvalidFrame(
      () => bridgeCodec.encode(failure('', 'm')),
      'Invalid frame: `outcome.code` must be a non-empty string, got "" (string)',
    );
  });
});
