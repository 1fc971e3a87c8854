import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bridgeCodec } from '../../../src/kernel/protocol/bridge-codec.js';
import { failure, streamChunk, success } from '../../../src/kernel/protocol/hostcall-outcome.js';
import { serdeCodec } from '../../../src/kernel/protocol/serde-codec.js';
import { expectInvalidFrame } from './expect-invalid-frame.js';
import { outcomeArbitrary } from './outcome-arbitraries.js';

const sc = (fields: Record<string, unknown>) => ({
  StreamChunk: { sequence: 0, chunk: 'a', is_final: false, ...fields },
});
const VARIANTS = '`Success`, `Error` or `StreamChunk`';

describe('serdeCodec', () => {
  it("encodes each variant as serde's externally tagged enum", () => {
    expect(serdeCodec.encode(success([1, 'two']))).toEqual({ Success: [1, 'two'] });
    expect(serdeCodec.encode(failure('EXEC_FAILED', 'exit code 1'))).toEqual({
      Error: { code: 'EXEC_FAILED', message: 'exit code 1' },
    });
    expect(serdeCodec.encode(streamChunk(0, 'first line of stdout\n', false))).toEqual({
      StreamChunk: { sequence: 0, chunk: 'first line of stdout\n', is_final: false },
    });
  });

  it('decodes the JSON text a serde host writes (the examples of docs/protocol.md)', () => {
    expect(
      serdeCodec.decode(JSON.parse('{"StreamChunk":{"sequence":0,"chunk":null,"is_final":true}}')),
    ).toEqual(streamChunk(0, null, true));
    expect(serdeCodec.decode(JSON.parse('{"Success":null}'))).toEqual(success(null));
    expect(serdeCodec.decode(JSON.parse('{"Error":{"code":"EXEC_FAILED","message":"exit code 1"}}'))).toEqual(
      failure('EXEC_FAILED', 'exit code 1'),
    );
  });

  it('round-trips every outcome, in memory and through JSON text', () => {
    fc.assert(
      fc.property(outcomeArbitrary, (outcome) => {
        expect(serdeCodec.decode(serdeCodec.encode(outcome))).toEqual(outcome);
        const text = JSON.stringify(serdeCodec.encode(outcome));
        expect(serdeCodec.decode(JSON.parse(text))).toEqual(outcome);
      }),
      { numRuns: 500 },
    );
  });

  it('translates losslessly between the serde and the bridge shapes', () => {
    fc.assert(
      fc.property(outcomeArbitrary, (outcome) => {
        const viaBridge = bridgeCodec.decode(
          bridgeCodec.encode(serdeCodec.decode(serdeCodec.encode(outcome))),
        );
        expect(serdeCodec.encode(viaBridge)).toEqual(serdeCodec.encode(outcome));
      }),
      { numRuns: 200 },
    );
  });

  it('round-trips sequence Number.MAX_SAFE_INTEGER and rejects larger ones instead of rounding', () => {
    const max = Number.MAX_SAFE_INTEGER;
    const text = JSON.stringify(serdeCodec.encode(streamChunk(max, 'x', false)));
    expect(text).toContain('"sequence":9007199254740991');
    expect(serdeCodec.decode(JSON.parse(text))).toEqual(streamChunk(max, 'x', false));
    for (const [digits, shown] of [
      ['9007199254740992', '9007199254740992'],
      ['9007199254740993', '9007199254740992'],
      ['18446744073709551615', '18446744073709552000'],
      ['1e300', '1e+300'],
    ] as const) {
      expectInvalidFrame(
        () =>
          serdeCodec.decode(
            JSON.parse(`{"StreamChunk":{"sequence":${digits},"chunk":null,"is_final":true}}`),
          ),
        `Invalid frame: \`outcome.StreamChunk.sequence\` must be a non-negative safe integer, got ${shown} (number)`,
        'outcome.StreamChunk.sequence',
      );
    }
  });

  const malformed: ReadonlyArray<readonly [string, unknown, string]> = [
    ['null', null, `\`outcome\` must be an object with one key: ${VARIANTS}, got null (null)`],
    [
      'a bare variant name',
      'Success',
      `\`outcome\` must be an object with one key: ${VARIANTS}, got "Success" (string)`,
    ],
    [
      'an array',
      ['Success', 1],
      `\`outcome\` must be an object with one key: ${VARIANTS}, got ["Success",1] (array)`,
    ],
    ['no key', {}, `\`outcome\` must have exactly one key: ${VARIANTS}, got {} (object)`],
    [
      'two variants',
      { Success: 1, Error: { code: 'E', message: 'm' } },
      `\`outcome\` must have exactly one key: ${VARIANTS}, got {"Success":1,"Error":{"code":"E","message":"m"}} (object)`,
    ],
    [
      'a misspelt variant',
      { Sucess: 1 },
      `\`outcome.Sucess\` is not a known variant (expected ${VARIANTS}), got 1 (number)`,
    ],
    [
      'a lower-case variant',
      { success: 1 },
      `\`outcome.success\` is not a known variant (expected ${VARIANTS}), got 1 (number)`,
    ],
    [
      'a bridge-shaped outcome',
      { ok: true },
      `\`outcome.ok\` is not a known variant (expected ${VARIANTS}), got true (boolean)`,
    ],
    ['Success(undefined)', { Success: undefined }, '`outcome.Success` must be a JSON value, got nothing'],
    ['Success(NaN)', { Success: Number.NaN }, '`outcome.Success` must be a finite number, got NaN (number)'],
    [
      'a Map inside Success',
      { Success: { a: new Map() } },
      '`outcome.Success.a` must be a plain object, got {} (object)',
    ],
    [
      'Error as a string',
      { Error: 'boom' },
      '`outcome.Error` must be an object with `code` and `message`, got "boom" (string)',
    ],
    [
      'Error without message',
      { Error: { code: 'E' } },
      '`outcome.Error.message` must be a string, got nothing',
    ],
    [
      'Error with numeric code',
      { Error: { code: 1, message: 'm' } },
      '`outcome.Error.code` must be a non-empty string, got 1 (number)',
    ],
    [
      'Error with empty code',
      { Error: { code: '', message: 'm' } },
      '`outcome.Error.code` must be a non-empty string, got "" (string)',
    ],
    [
      'Error with an extra field',
      { Error: { code: 'E', message: 'm', detail: 'x' } },
      '`outcome.Error.detail` is not a known field, got "x" (string)',
    ],
    [
      'StreamChunk as null',
      { StreamChunk: null },
      '`outcome.StreamChunk` must be an object with `sequence`, `chunk` and `is_final`, got null (null)',
    ],
    [
      'sequence missing',
      sc({ sequence: undefined }),
      '`outcome.StreamChunk.sequence` must be a non-negative safe integer, got nothing',
    ],
    [
      'negative sequence',
      sc({ sequence: -1 }),
      '`outcome.StreamChunk.sequence` must be a non-negative safe integer, got -1 (number)',
    ],
    [
      'fractional sequence',
      sc({ sequence: 0.5 }),
      '`outcome.StreamChunk.sequence` must be a non-negative safe integer, got 0.5 (number)',
    ],
    [
      'sequence as a string',
      sc({ sequence: '1' }),
      '`outcome.StreamChunk.sequence` must be a non-negative safe integer, got "1" (string)',
    ],
    [
      'sequence as null',
      sc({ sequence: null }),
      '`outcome.StreamChunk.sequence` must be a non-negative safe integer, got null (null)',
    ],
    [
      'is_final missing',
      sc({ is_final: undefined }),
      '`outcome.StreamChunk.is_final` must be a boolean, got nothing',
    ],
    [
      'is_final as a string',
      sc({ is_final: 'false' }),
      '`outcome.StreamChunk.is_final` must be a boolean, got "false" (string)',
    ],
    [
      'is_final as 0',
      sc({ is_final: 0 }),
      '`outcome.StreamChunk.is_final` must be a boolean, got 0 (number)',
    ],
    [
      'isFinal (camelCase) as an extra key',
      sc({ isFinal: true }),
      '`outcome.StreamChunk.isFinal` is not a known field, got true (boolean)',
    ],
    [
      'chunk missing',
      sc({ chunk: undefined }),
      '`outcome.StreamChunk.chunk` must be a JSON value, got nothing',
    ],
    [
      'a symbol deep in the chunk',
      sc({ chunk: { lines: [{ text: Symbol('x') }] } }),
      '`outcome.StreamChunk.chunk.lines[0].text` must be a JSON value, got Symbol(x) (symbol)',
    ],
    [
      'call_id inside the chunk',
      sc({ call_id: 'hc-1' }),
      '`outcome.StreamChunk.call_id` is not a known field, got "hc-1" (string)',
    ],
  ];

  it.each(malformed)('rejects %s with a message naming the field', (_name, input, message) => {
    expectInvalidFrame(() => serdeCodec.decode(input), `Invalid frame: ${message}`);
  });

  it('turns a deeply nested value into a typed error, not a stack overflow', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const result = serdeCodec.safeDecode(deep);
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error.message).toBe(
        `Invalid frame: \`outcome\` must be an object with one key: ${VARIANTS}, got [a value that cannot be shown] (array)`,
      );
    }
    expect(serdeCodec.decode({ Success: deep })).toEqual(success(deep as never));
  });
});
