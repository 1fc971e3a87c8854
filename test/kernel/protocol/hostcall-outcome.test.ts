import { describe, expect, it } from 'vitest';
import {
  failure,
  hostcallOutcomeSchema,
  streamChunk,
  success,
} from '../../../src/kernel/protocol/hostcall-outcome.js';

describe('hostcall outcomes', () => {
  it('are built by success, failure and streamChunk', () => {
    expect(success({ exitCode: 0 })).toEqual({ type: 'success', value: { exitCode: 0 } });
    expect(failure('EXEC_FAILED', 'exit code 1')).toEqual({
      type: 'error',
      code: 'EXEC_FAILED',
      message: 'exit code 1',
    });
    expect(streamChunk(3, null, true)).toEqual({
      type: 'streamChunk',
      sequence: 3,
      chunk: null,
      isFinal: true,
    });
  });

  it('are checked by hostcallOutcomeSchema', () => {
    expect(hostcallOutcomeSchema.safeParse(streamChunk(Number.MAX_SAFE_INTEGER, 'x', false)).success).toBe(
      true,
    );
    const bad = hostcallOutcomeSchema.safeParse({
      type: 'streamChunk',
      sequence: 2 ** 53,
      chunk: 'x',
      isFinal: false,
    });
    expect(bad.error?.issues[0]).toMatchObject({
      path: ['sequence'],
      message: 'must be a non-negative safe integer',
    });
    const unknown = hostcallOutcomeSchema.safeParse({ type: 'partial' });
    expect(unknown.error?.issues[0]?.path).toEqual(['type']);
  });
});
