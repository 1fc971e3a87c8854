import { describe, expect, it } from 'vitest';
import { checkHostOutcome, decodeOutcome, isScalarChunk } from '../../../src/kernel/bridge/decode-outcome.js';
import {
  failure,
  type HostcallOutcome,
  streamChunk,
  success,
} from '../../../src/kernel/protocol/hostcall-outcome.js';

/** What `decodeOutcome` throws for `outcome`, as a message. */
const decodeError = (outcome: unknown): string => {
  try {
    decodeOutcome(outcome);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected decodeOutcome to throw');
};

describe('checkHostOutcome', () => {
  it('takes a stream chunk of a JSON scalar as it is (the same object)', () => {
    for (const chunk of ['line 1\n', '', null, 0, -2.5, true]) {
      const outcome = streamChunk(7, chunk, chunk === null);
      expect(checkHostOutcome(outcome)).toBe(outcome);
    }
  });

  it('decodes everything else fully: objects, success values, errors', () => {
    const outcomes: HostcallOutcome[] = [
      streamChunk(0, { stderr: 'warn\n' }, false),
      streamChunk(1, ['a', 1], false),
      success({ exit_code: 0 }),
      failure('EXEC_FAILED', 'exit code 1'),
    ];
    for (const outcome of outcomes) {
      const checked = checkHostOutcome(outcome);
      expect(checked).not.toBe(outcome);
      expect(checked).toEqual(outcome);
    }
  });

  it('rejects what is not JSON or not a valid envelope with the message of decodeOutcome', () => {
    const bad = [
      streamChunk(0, { at: new Date(0) } as never, false),
      streamChunk(0, Number.NaN, false),
      streamChunk(0, undefined as never, false),
      streamChunk(-1, 'x', false),
      streamChunk(0.5, 'x', false),
      streamChunk(0, 'x', 'yes' as never),
      success(undefined as never),
      failure('', 'no code'),
    ];
    for (const outcome of bad) {
      const message = decodeError(outcome);
      expect(() => checkHostOutcome(outcome)).toThrow(message);
    }
  });
});

describe('isScalarChunk', () => {
  it('is true for a stream chunk of a JSON scalar with a whole sequence ≥ 0 and a boolean isFinal', () => {
    for (const chunk of ['line 1\n', '', null, 0, -2.5, true]) {
      expect(isScalarChunk(streamChunk(7, chunk, chunk === null))).toBe(true);
    }
  });

  it('is false for objects, arrays, other outcomes and a malformed envelope', () => {
    const others = [
      streamChunk(0, { stderr: 'warn\n' }, false),
      streamChunk(0, ['a'], false),
      streamChunk(0, Number.NaN, false),
      streamChunk(0, undefined as never, false),
      streamChunk(-1, 'x', false),
      streamChunk(0.5, 'x', false),
      streamChunk(0, 'x', 'yes' as never),
      success('x'),
      failure('EXEC_FAILED', 'exit code 1'),
    ];
    for (const outcome of others) expect(isScalarChunk(outcome)).toBe(false);
  });
});
