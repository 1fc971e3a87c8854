import { describe, expect, it } from 'vitest';
import { isScalarChunk } from '../../../src/kernel/bridge/is-scalar-chunk.js';
import { failure, streamChunk, success } from '../../../src/kernel/protocol/hostcall-outcome.js';

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
