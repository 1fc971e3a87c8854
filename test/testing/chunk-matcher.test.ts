import { deepStrictEqual } from 'node:assert/strict';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { SequenceError, SluiceError } from '../../src/index.js';
import { chunkMatcher, toComparable } from '../../src/testing/index.js';

describe('chunkMatcher / toComparable', () => {
  it('compares errors by name, code, message and info, never by stack or identity', () => {
    const one = new SequenceError({ rule: 'gap', expected: 1, received: 3 });
    const two = new SequenceError({ rule: 'gap', expected: 1, received: 3 });
    two.stack = 'somewhere else';
    const match = chunkMatcher(deepStrictEqual);
    expect(() => match(one, two)).not.toThrow();
    expect(() => match(one, new SequenceError({ rule: 'gap', expected: 1, received: 4 }))).toThrow();
    expect(() =>
      match(new SluiceError('TIMEOUT', 'late'), new SluiceError('STREAM_STALLED', 'late')),
    ).toThrow();
    expect(() => match(new Error('x'), new TypeError('x'))).toThrow();
    expect(toComparable(new SluiceError('TIMEOUT', 'late'))).toEqual({
      error: 'SluiceError',
      code: 'TIMEOUT',
      message: 'late',
    });
  });

  it('treats an undefined property as absent, keeps bytes, and survives cycles', () => {
    const match = chunkMatcher();
    const event = { sequence: 0, kind: 'stdout', content: 'a', isFinal: false };
    expect(() => match({ ...event, metadata: undefined }, event)).not.toThrow();
    expect(() =>
      match({ ...event, content: new Uint8Array([1]) }, { ...event, content: new Uint8Array([2]) }),
    ).toThrow();
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(toComparable(cyclic)).toEqual({ name: 'loop', self: '[Circular]' });
  });

  it('plugs into a plain TestScheduler and fails a wrong expectation', () => {
    const testScheduler = new TestScheduler(chunkMatcher());
    testScheduler.run(({ cold, expectObservable }) => {
      expectObservable(cold('-#', undefined, new SluiceError('EXEC_FAILED', 'exit code 1'))).toBe(
        '-#',
        undefined,
        new SluiceError('EXEC_FAILED', 'exit code 1'),
      );
    });
    expect(() =>
      new TestScheduler(chunkMatcher()).run(({ cold, expectObservable }) => {
        expectObservable(cold('-a|')).toBe('-b|');
      }),
    ).toThrow();
  });

  it('rejects an assert that is not a function', () => {
    expect(() => chunkMatcher(5 as never)).toThrow(
      'Expected the `assert` argument to be a function, got `5` (number)',
    );
  });
});
