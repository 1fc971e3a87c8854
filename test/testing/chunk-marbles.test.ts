import { describe, expect, it } from 'vitest';
import { chunkMarbles } from '../../src/testing/index.js';

describe('chunkMarbles', () => {
  it('stamps sequence numbers in diagram order and turns `|` into the null sentinel then complete', () => {
    const built = chunkMarbles('-a-b-|', { a: 'line 1\n', b: 'line 2\n' }, { kind: 'stdout' });
    expect(built.marbles).toBe('-\u{e000}-\u{e001}-(\u{e002}|)');
    expect(Object.values(built.values)).toEqual([
      { sequence: 0, kind: 'stdout', content: 'line 1\n', isFinal: false },
      { sequence: 1, kind: 'stdout', content: 'line 2\n', isFinal: false },
      { sequence: 2, kind: 'end', content: null, isFinal: true },
    ]);
    expect(built.end).toEqual({ sequence: 2, kind: 'end', content: null, isFinal: true });
  });

  it('gives a letter used twice two sequence numbers, and the letter itself as default content', () => {
    const built = chunkMarbles('(aa)b');
    expect(Object.values(built.values).map((event) => [event.sequence, event.content])).toEqual([
      [0, 'a'],
      [1, 'a'],
      [2, 'b'],
    ]);
    expect(built.events.a).toEqual({ sequence: 1, kind: 'chunk', content: 'a', isFinal: false });
    expect(built.end).toBeUndefined();
  });

  it('marks `final` letters final (then `|` adds no sentinel), and puts a sentinel inside a group', () => {
    expect(chunkMarbles('-a-(b|)', {}, { final: 'b' }).marbles).toBe('-\u{e000}-(\u{e001}|)');
    expect(chunkMarbles('-a-(b|)', {}, { final: 'b' }).events.b?.isFinal).toBe(true);
    expect(chunkMarbles('-(a|)').marbles).toBe('-(\u{e000}\u{e001}|)');
    expect(chunkMarbles('-a-|', {}, { end: false }).marbles).toBe('-\u{e000}-|');
  });

  it('keeps time progressions, errors and per-letter kinds and metadata', () => {
    const built = chunkMarbles(
      'a 10ms e 1s #',
      { a: 'out', e: 'err' },
      {
        kind: 'stdout',
        kinds: { e: 'stderr' },
        metadata: { a: { partial: true } },
      },
    );
    expect(built.marbles).toBe('\u{e000} 10ms \u{e001} 1s #');
    expect(Object.values(built.values)).toEqual([
      { sequence: 0, kind: 'stdout', content: 'out', metadata: { partial: true }, isFinal: false },
      { sequence: 1, kind: 'stderr', content: 'err', isFinal: false },
    ]);
  });

  it('gives the sentinel the configured kind and metadata', () => {
    const built = chunkMarbles('-|', {}, { end: { kind: 'exit', metadata: { reason: 'stalled' } } });
    expect(built.end).toEqual({
      sequence: 0,
      kind: 'exit',
      content: null,
      metadata: { reason: 'stalled' },
      isFinal: true,
    });
  });

  it('rejects bad arguments with a message naming them', () => {
    expect(() => chunkMarbles(5 as never)).toThrow(
      'Expected the `marbles` argument to be a string, got `5` (number)',
    );
    expect(() => chunkMarbles('-a', {}, { kind: 1 as never })).toThrow(
      'Expected the `kind` option to be a string, got `1` (number)',
    );
  });
});
