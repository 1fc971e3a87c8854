import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { InvalidFrameError, isInvalidFrameError } from '../../../src/core/errors/invalid-frame-error.js';
import { isSequenceError, SequenceError } from '../../../src/core/errors/sequence-error.js';
import { isSluiceError, SluiceError } from '../../../src/core/errors/sluice-error.js';

describe('SluiceError', () => {
  it('carries a code, a message, a cause and info', () => {
    const cause = new Error('low-level');
    const error = new SluiceError('TIMEOUT', 'took too long', { cause, info: { ms: 5 } });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toBe('took too long');
    expect(error.cause).toBe(cause);
    expect(error.info).toEqual({ ms: 5 });
    expect(error.name).toBe('SluiceError');
    expect(String(error)).toBe('SluiceError: took too long');
  });

  it('is recognised by its guard, with or without a code', () => {
    const error = new SluiceError('EXEC_FAILED', 'exit code 1');
    expect(isSluiceError(error)).toBe(true);
    expect(isSluiceError(error, 'EXEC_FAILED')).toBe(true);
    expect(isSluiceError(error, 'TIMEOUT')).toBe(false);
    for (const other of [
      new Error('x'),
      { code: 'EXEC_FAILED', message: 'fake' },
      null,
      undefined,
      'EXEC_FAILED',
      42,
    ]) {
      expect(isSluiceError(other)).toBe(false);
    }
  });

  it('is recognised across realms, where instanceof fails', () => {
    const brand = Symbol.for('sluice.error');
    const foreign = runInNewContext(
      `(() => { const e = new Error('from another realm'); Object.defineProperty(e, brand, { value: true }); e.code = 'STREAM_SEQUENCE'; return e; })()`,
      { brand },
    );
    expect(foreign instanceof Error).toBe(false);
    expect(isSluiceError(foreign, 'STREAM_SEQUENCE')).toBe(true);
    expect(isSequenceError(foreign)).toBe(true);
  });
});

describe('SequenceError', () => {
  it.each([
    [{ rule: 'start', expected: 0, received: 3 }, 'Sequence must start at 0, received 3'],
    [{ rule: 'gap', expected: 2, received: 3 }, 'Sequence gap: expected 2, received 3 (2 is missing)'],
    [{ rule: 'gap', expected: 2, received: 9 }, 'Sequence gap: expected 2, received 9 (2..8 are missing)'],
    [{ rule: 'duplicate', expected: 4, received: 3 }, 'Sequence duplicate: expected 4, received 3 again'],
    [{ rule: 'order', expected: 4, received: 1 }, 'Sequence out of order: expected 4, received 1'],
    [{ rule: 'after-final', expected: undefined, received: 7 }, 'Sequence 7 arrived after the final event'],
    [
      { rule: 'missing-final', expected: 5, received: undefined },
      'Stream completed without a final event (expected sequence 5)',
    ],
    [
      { rule: 'final-before-complete', expected: undefined, received: 0 },
      'A final event arrived before its source completed (the source went on with sequence 0): one stream carries one run. To make several runs one stream (concatMap, mergeMap or concat of runs), add joinRuns() after them (docs/protocol.md, "Composed runs")',
    ],
  ] as const)('describes %o', (info, message) => {
    const error = new SequenceError(info);
    expect(error.message).toBe(message);
    expect(error.code).toBe('STREAM_SEQUENCE');
    expect(error.info).toEqual(info);
  });
});

describe('InvalidFrameError', () => {
  it('names the field and the value with its type', () => {
    const error = new InvalidFrameError(
      { field: 'outcome.StreamChunk.sequence', value: -1 },
      'must be non-negative',
    );
    expect(error.message).toBe(
      'Invalid frame: `outcome.StreamChunk.sequence` must be non-negative, got -1 (number)',
    );
    expect(isInvalidFrameError(error)).toBe(true);
    expect(error.code).toBe('INVALID_FRAME');
  });

  it('describes the whole frame, long values and non-JSON values readably', () => {
    expect(new InvalidFrameError({ field: '', value: '{"a":' }, 'is not JSON').message).toBe(
      'Invalid frame: the frame is not JSON, got "{\\"a\\":" (string)',
    );
    const long = new InvalidFrameError({ field: 'chunk', value: 'x'.repeat(500) }, 'is too long').message;
    expect(long.length).toBeLessThan(160);
    expect(new InvalidFrameError({ field: 'n', value: 10n }, 'is a bigint').message).toContain('10 (bigint)');
    expect(new InvalidFrameError({ field: 'n', value: undefined }, 'is required').message).toBe(
      'Invalid frame: `n` is required, got nothing',
    );
  });
});
