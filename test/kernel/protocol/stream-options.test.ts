import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInvalidRequestError } from '../../../src/core/index.js';
import { parseStreamOptions, streamOptionsSchema } from '../../../src/kernel/protocol/stream-options.js';

function rejection(payload: unknown): string {
  try {
    parseStreamOptions(payload);
  } catch (error) {
    expect(isInvalidRequestError(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected parseStreamOptions to throw');
}

describe('parseStreamOptions', () => {
  it("applies the protocol's defaults and leaves other payload fields alone", () => {
    expect(parseStreamOptions({})).toEqual({ stream: false, bufferSize: 16, stallTimeoutMs: 30_000 });
    expect(parseStreamOptions({ cmd: 'ls', args: ['-la'], stream: true })).toEqual({
      stream: true,
      bufferSize: 16,
      stallTimeoutMs: 30_000,
    });
    expect(parseStreamOptions({ stream: true, buffer_size: 32, stall_timeout_ms: 0 })).toEqual({
      stream: true,
      bufferSize: 32,
      stallTimeoutMs: 0,
    });
  });

  it('accepts every valid combination unchanged', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.integer({ min: 1, max: 1 << 20 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (s, b, t) => {
          expect(parseStreamOptions({ stream: s, buffer_size: b, stall_timeout_ms: t })).toEqual({
            stream: s,
            bufferSize: b,
            stallTimeoutMs: t,
          });
        },
      ),
    );
  });

  it.each([
    [null, 'Invalid hostcall request: `payload` must be an object, got null (null)'],
    [[], 'Invalid hostcall request: `payload` must be an object, got [] (array)'],
    [{ stream: 'true' }, 'Invalid hostcall request: `payload.stream` must be a boolean, got "true" (string)'],
    [{ stream: 1 }, 'Invalid hostcall request: `payload.stream` must be a boolean, got 1 (number)'],
    [
      { buffer_size: 0 },
      'Invalid hostcall request: `payload.buffer_size` must be an integer ≥ 1, got 0 (number)',
    ],
    [
      { buffer_size: 2.5 },
      'Invalid hostcall request: `payload.buffer_size` must be an integer ≥ 1, got 2.5 (number)',
    ],
    [
      { buffer_size: '16' },
      'Invalid hostcall request: `payload.buffer_size` must be an integer ≥ 1, got "16" (string)',
    ],
    [
      { buffer_size: Number.NaN },
      'Invalid hostcall request: `payload.buffer_size` must be an integer ≥ 1, got NaN (number)',
    ],
    [
      { stall_timeout_ms: -1 },
      'Invalid hostcall request: `payload.stall_timeout_ms` must be an integer from 0 to 2147483647, got -1 (number)',
    ],
    [
      { stall_timeout_ms: 2 ** 31 },
      'Invalid hostcall request: `payload.stall_timeout_ms` must be an integer from 0 to 2147483647, got 2147483648 (number)',
    ],
    [
      { stall_timeout_ms: null },
      'Invalid hostcall request: `payload.stall_timeout_ms` must be an integer from 0 to 2147483647, got null (null)',
    ],
  ])('rejects %j naming the field', (payload, message) => {
    expect(rejection(payload)).toBe(message);
  });

  it('exposes the same rules as a zod schema', () => {
    expect(streamOptionsSchema.safeParse({ buffer_size: 0 }).success).toBe(false);
    expect(streamOptionsSchema.parse({ stream: true })).toEqual({
      stream: true,
      bufferSize: 16,
      stallTimeoutMs: 30_000,
    });
  });
});
