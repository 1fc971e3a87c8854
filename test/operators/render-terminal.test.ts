import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, type Observable, of, Subject, take, tap, toArray } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../src/core/chunk.js';
import {
  renderTerminal,
  type TerminalEvent,
  type TerminalScreen,
} from '../../src/operators/render-terminal.js';
import { exec } from '../../src/sources/exec.js';
import { chunk } from '../support/chunk.js';
import { synchronousSource } from '../support/operator-marbles.js';
import { needs } from '../support/system-tools.js';
import { newTestScheduler } from '../support/test-scheduler.js';

/** Terminal output as `exec(…, { tty: true })` delivers it: `stdout` chunks, then the exit. */
const out = (content: string): ChunkEvent<string> => chunk(0, content);
const EXIT = chunk(9, 'done', true, { kind: 'exit' });
const line = (content: string, sequence: number) => chunk(sequence, content, false, { kind: 'line' });
const render = (chunks: readonly string[], config = {}) =>
  lastValueFrom(of(...chunks.map((text) => out(text)), EXIT).pipe(renderTerminal(config), toArray()));
const lines = (events: readonly TerminalEvent[]) =>
  events.flatMap((event) => (event.kind === 'line' ? [event.content as string] : []));

describe('renderTerminal', () => {
  it('gives each line once it scrolled off the screen, the rest at the final event (marbles)', () => {
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('a-b-c-d-(x|)', {
        a: out('one\r\n'),
        b: out('two\r\n'),
        c: out('three\r\n'),
        d: out('four'),
        x: EXIT,
      });
      // A 3-row screen: `one` leaves it when `three` ends and the cursor moves to a fourth row.
      expectObservable(source.pipe(renderTerminal({ columns: 20, rows: 3 }))).toBe('----a---(bcdx|)', {
        a: line('one', 0),
        b: line('two', 1),
        c: line('three', 2),
        d: line('four', 3),
        x: { ...EXIT, sequence: 4 },
      });
      expectSubscriptions(source.subscriptions).toBe('^-------!');
    });
  });

  it('renders a progress bar redrawn 100 times with `\\r` as one line, in its last state (marbles)', () => {
    const frames = Array.from(
      { length: 100 },
      (_, step) => `\r[${'#'.repeat(Math.floor((step + 1) / 10)).padEnd(10)}] ${step + 1}%`,
    );
    newTestScheduler().run(({ cold, expectObservable }) => {
      const source = cold('a 99ms b 9ms (x|)', {
        a: out('building\r\n'),
        b: out(`${frames.join('')}\r\ndone\r\n`),
        x: EXIT,
      });
      expectObservable(source.pipe(renderTerminal({ rows: 24 }))).toBe('110ms (abcx|)', {
        a: line('building', 0),
        b: line('[##########] 100%', 1),
        c: line('done', 2),
        x: { ...EXIT, sequence: 3 },
      });
    });
  });

  it('passes an error on after the lines before it', () => {
    newTestScheduler().run(({ cold, expectObservable }) => {
      const source = cold('a-#', { a: out('half\r\nway') });
      expectObservable(source.pipe(renderTerminal())).toBe('--(ab#)', {
        a: line('half', 0),
        b: line('way', 1),
      });
    });
  });

  it('stops listening to a synchronous source when unsubscribed', () => {
    const sideEffects: number[] = [];
    const source = synchronousSource(sideEffects, (index) => out(`${index}\r\n`));
    // Two rows: line 0 leaves the screen when line 1 ends.
    source.pipe(renderTerminal({ rows: 2 }), take(1)).subscribe();
    expect(sideEffects).toEqual([0, 1]);
  });

  it('applies erase-line, cursor movement and colours instead of copying them', async () => {
    const events = await render([
      '\x1b[31mred\x1b[0m plain\r\n',
      'typo\x1b[2K\rfixed\r\n',
      'a\r\nb\x1b[1A\rA\x1b[1B\r\n',
    ]);
    expect(lines(events)).toEqual(['red plain', 'fixed', 'A', 'b']);
  });

  it('joins a line wrapped over several rows', async () => {
    const events = await render([`${'x'.repeat(25)}\r\nnext\r\n`], { columns: 10, rows: 2 });
    expect(lines(events)).toEqual(['x'.repeat(25), 'next']);
  });

  it('leaves out what a full-screen program drew on the alternate screen', async () => {
    const events = await render([
      'before\r\n',
      '\x1b[?1049h\x1b[H\x1b[2J',
      Array.from({ length: 40 }, (_, row) => `page line ${row}`).join('\r\n'),
      '\x1b[?1049l',
      'after\r\n',
    ]);
    expect(lines(events)).toEqual(['before', 'after']);
  });

  it('keeps every line of a chunk that scrolls thousands of lines at once', async () => {
    const many = Array.from({ length: 5000 }, (_, n) => `${n}\r\n`).join('');
    const events = await render([many], { rows: 5 });
    expect(lines(events)).toEqual(Array.from({ length: 5000 }, (_, n) => String(n)));
  });

  it('with `screen: true`, gives the screen after each chunk, plain and styled', async () => {
    const events = await render(['\x1b[32mgreen\x1b[0m\r\n', '\x1b[?1049hfull'], {
      columns: 20,
      rows: 2,
      screen: true,
    });
    const screens = events.flatMap((event) =>
      event.kind === 'screen' ? [event.content as TerminalScreen] : [],
    );
    expect(screens).toHaveLength(2);
    expect(screens[0]?.lines).toEqual(['green', '']);
    expect(screens[0]?.styled).toContain('\x1b[32m');
    expect(screens[0]?.alternate).toBe(false);
    // The alternate screen starts blank, with the cursor where it was.
    expect(screens[1]).toMatchObject({ lines: ['', 'full'], alternate: true, cursor: { row: 1, column: 4 } });
  });

  it('checks its options before subscribe', () => {
    expect(() => renderTerminal({ columns: 0 })).toThrow(
      new TypeError('Expected the `columns` option to be a positive integer, got `0` (number)'),
    );
    expect(() => renderTerminal({ rows: 1.5 })).toThrow(
      new TypeError('Expected the `rows` option to be a positive integer, got `1.5` (number)'),
    );
    expect(() => renderTerminal({ cols: 80 } as never)).toThrow(/Unknown `cols` option/);
  });
});

describe.skipIf(!needs('linux', 'script'))('renderTerminal on real terminal runs', () => {
  const directory = mkdtempSync(join(tmpdir(), 'sluice-render-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  const size = { columns: 80, rows: 24 };
  const rendered = (events: Observable<ChunkEvent<unknown>>) =>
    lastValueFrom(events.pipe(renderTerminal(size), toArray()));

  it('a 100-step progress bar is one finished line', async () => {
    const script =
      'i=1; while [ $i -le 100 ]; do printf "\\r%3d%% working" $i; i=$((i+1)); done; echo; echo done';
    const events = await rendered(exec('sh', ['-c', script], { tty: size }));
    expect(lines(events)).toEqual(['100% working', 'done']);
    expect(events.at(-1)).toMatchObject({ kind: 'exit', isFinal: true });
  });

  it('`less` quit by input ends cleanly, and none of its screens become lines', async () => {
    const file = join(directory, 'pages.txt');
    writeFileSync(file, Array.from({ length: 200 }, (_, n) => `page text ${n}`).join('\n'));
    // Keys are typed once `less` shows the file, as a person would (what is typed earlier is echoed).
    const keys = new Subject<string>();
    const run = exec('sh', ['-c', 'echo before; less "$0"; echo after', file], { tty: size, input: keys });
    const shown = tap((event: ChunkEvent<unknown>) => {
      if (typeof event.content === 'string' && event.content.includes('page text 0')) {
        keys.next(' q');
        keys.complete();
      }
    });
    const events = await rendered(run.pipe(shown));
    expect(lines(events)).toEqual(['before', 'after']);
    expect(events.at(-1)).toMatchObject({ kind: 'exit', content: expect.objectContaining({ exitCode: 0 }) });
  });
});
