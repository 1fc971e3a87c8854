import { describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../src/core/chunk.js';
import { markTerminalSize } from '../../src/web/mark-terminal-size.js';
import { chunk } from '../support/chunk.js';
import { newTestScheduler } from '../support/test-scheduler.js';

const event = (sequence: number, kind: string, content: string | null, terminal?: object): ChunkEvent =>
  chunk(
    sequence,
    content,
    kind === 'exit',
    terminal === undefined ? { kind } : { kind, metadata: { terminal } },
  );

describe('markTerminalSize', () => {
  it("marks the first output with the run's size and the first output after each resize with its size", () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b--c--d-e-x|', {
        a: event(0, 'stdout', 'one'),
        b: event(1, 'stderr', 'two'),
        c: event(2, 'stdout', 'three'),
        d: event(3, 'stdout', 'four'),
        e: event(4, 'stdout', 'five'),
        x: event(5, 'exit', null),
      });
      const resize = hot('----r---s-t-u', {
        r: { columns: 100, rows: 30 },
        s: { columns: 0, rows: 30 }, // no terminal's size: left out, as exec leaves it
        t: { columns: 120, rows: 40 },
        u: { columns: 60, rows: 20 }, // no output after it
      });
      const marked = source.pipe(markTerminalSize({ columns: 80, rows: 24, resize }));
      expectObservable(marked).toBe('-a-b--c--d-e-x|', {
        a: event(0, 'stdout', 'one', { columns: 80, rows: 24 }),
        b: event(1, 'stderr', 'two'),
        c: event(2, 'stdout', 'three', { columns: 100, rows: 30 }),
        d: event(3, 'stdout', 'four'),
        e: event(4, 'stdout', 'five', { columns: 120, rows: 40 }),
        x: event(5, 'exit', null),
      });
      expectSubscriptions(resize.subscriptions).toBe('^-------------!');
    });
  });

  it('`true` is 80 × 24; other metadata is kept', () => {
    newTestScheduler().run(({ cold, expectObservable }) => {
      const partial = { ...event(0, 'stdout', 'a'), metadata: { partial: true } };
      expectObservable(cold('a|', { a: partial }).pipe(markTerminalSize(true))).toBe('a|', {
        a: { ...partial, metadata: { partial: true, terminal: { columns: 80, rows: 24 } } },
      });
    });
  });

  it('stops listening to its source and to the resizes when unsubscribed', () => {
    newTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = cold('a---b', { a: event(0, 'stdout', 'a'), b: event(1, 'stdout', 'b') });
      const resize = hot('--r', { r: { columns: 90, rows: 20 } });
      expectObservable(source.pipe(markTerminalSize({ resize })), '---!').toBe('a', {
        a: event(0, 'stdout', 'a', { columns: 80, rows: 24 }),
      });
      expectSubscriptions(source.subscriptions).toBe('^--!');
      expectSubscriptions(resize.subscriptions).toBe('^--!');
    });
  });

  it('checks its option as exec checks `tty`', () => {
    expect(() => markTerminalSize({ columns: 0 })).toThrow('Expected the `tty.columns` option to be');
    expect(() => markTerminalSize('wide' as never)).toThrow('Expected the `tty` option to be');
    expect(() => markTerminalSize(false as never)).toThrow('Expected the `tty` option to be');
  });
});
