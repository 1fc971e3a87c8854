import { describe, expect, it } from 'vitest';
import { ProcessEnds } from '../../../src/sources/exec/exec-process.js';

describe('ProcessEnds', () => {
  it('is complete only once the leader exited and both pipes ended, in any order', () => {
    const ends = new ProcessEnds();
    expect(ends.pipeEnded('stdout')).toBe(true);
    expect(ends.exited({ exitCode: 0, signal: null }, 7)).toBe(true);
    expect(ends.complete).toBe(false);
    expect(ends.pipesEnded).toBe(false);
    expect(ends.pipeEnded('stderr')).toBe(true);
    expect(ends.complete).toBe(true);
    expect(ends.exitedAt).toBe(7);
  });

  it('counts each end once', () => {
    const ends = new ProcessEnds();
    expect(ends.pipeEnded('stderr')).toBe(true);
    expect(ends.pipeEnded('stderr')).toBe(false);
    expect(ends.exited({ exitCode: 1, signal: null }, 1)).toBe(true);
    expect(ends.exited({ exitCode: null, signal: 'SIGKILL' }, 2)).toBe(false);
    expect(ends.exit).toEqual({ exitCode: 1, signal: null });
    expect(ends.exitedAt).toBe(1);
  });
});
