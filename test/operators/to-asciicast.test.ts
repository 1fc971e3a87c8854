import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, of, toArray } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { toAsciicast } from '../../src/operators/to-asciicast.js';
import { exec } from '../../src/sources/exec.js';
import { asciinemaCat, asciinemaPath } from '../support/asciinema.js';
import { chunk } from '../support/chunk.js';
import { needs } from '../support/system-tools.js';
import { newTestScheduler } from '../support/test-scheduler.js';

const EXIT = chunk(3, 0, true, { kind: 'exit' });

describe('toAsciicast', () => {
  it('writes the header at the first event, then one output line per chunk, in seconds from it (marbles)', () => {
    const scheduler = newTestScheduler();
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('500ms a 249ms b 1249ms c 99ms (x|)', {
        a: chunk(0, '\u001b[1;31mHello\u001b[0m\r\n'),
        b: chunk(1, 'oops "quoted"\n', false, { kind: 'stderr' }),
        c: chunk(2, new TextEncoder().encode('caf\u00e9\r\n')),
        x: EXIT,
      });
      const cast = source.pipe(toAsciicast({ columns: 100, rows: 30, title: 'demo', scheduler }));
      expectObservable(cast).toBe('500ms (ha) 246ms b 1249ms c 99ms |', {
        h: '{"version":2,"width":100,"height":30,"timestamp":0,"title":"demo"}\n',
        a: '[0,"o","\\u001b[1;31mHello\\u001b[0m\\r\\n"]\n',
        b: '[0.25,"o","oops \\"quoted\\"\\n"]\n',
        c: '[1.5,"o","café\\r\\n"]\n',
      });
      expectSubscriptions(source.subscriptions).toBe('^ 2099ms !');
    });
  });

  it('keeps a character split between byte chunks whole, and times to the microsecond', () => {
    const bytes = new TextEncoder().encode('é');
    const scheduler = newTestScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('a 1ms b|', { a: chunk(0, bytes.subarray(0, 1)), b: chunk(1, bytes.subarray(1)) });
      expectObservable(source.pipe(toAsciicast({ scheduler }))).toBe('h 1ms b|', {
        h: '{"version":2,"width":80,"height":24,"timestamp":0}\n',
        b: '[0.002,"o","é"]\n',
      });
    });
  });

  it('writes a character still split when the source ends as U+FFFD, not nothing', () => {
    const bytes = new TextEncoder().encode('aé');
    const scheduler = newTestScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('a 9ms (x|)', { a: chunk(0, bytes.subarray(0, 2)), x: EXIT });
      expectObservable(source.pipe(toAsciicast({ scheduler }))).toBe('(ha) 6ms (f|)', {
        h: '{"version":2,"width":80,"height":24,"timestamp":0}\n',
        a: '[0,"o","a"]\n',
        f: '[0.01,"o","\ufffd"]\n',
      });
    });
  });

  it('takes the size an event is marked with: the first sizes the header, a later one is a resize line', () => {
    const scheduler = newTestScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('a 9ms b 9ms (c|)', {
        a: chunk(0, 'one\r\n', false, { metadata: { terminal: { columns: 100, rows: 30 } } }),
        b: chunk(1, 'two\r\n'),
        c: chunk(2, 'three\r\n', false, { metadata: { terminal: { columns: 120, rows: 40 } } }),
      });
      expectObservable(source.pipe(toAsciicast({ scheduler }))).toBe('(ha) 6ms b 9ms (rc|)', {
        h: '{"version":2,"width":100,"height":30,"timestamp":0}\n',
        a: '[0,"o","one\\r\\n"]\n',
        b: '[0.01,"o","two\\r\\n"]\n',
        r: '[0.02,"r","120x40"]\n',
        c: '[0.02,"o","three\\r\\n"]\n',
      });
    });
  });

  it("takes the events' own times (metadata.at) over the clock's, as when a stored run is read back", () => {
    const scheduler = newTestScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const at = (ms: number) => ({ metadata: { at: 1_700_000_000_000 + ms } });
      const source = cold('a 9ms b 9ms (x|)', {
        a: chunk(0, 'one\r\n', false, at(0)),
        b: chunk(1, 'two\r\n', false, at(1500)),
        x: EXIT,
      });
      expectObservable(source.pipe(toAsciicast({ scheduler }))).toBe('(ha) 6ms b 9ms |', {
        h: '{"version":2,"width":80,"height":24,"timestamp":1700000000}\n',
        a: '[0,"o","one\\r\\n"]\n',
        b: '[1.5,"o","two\\r\\n"]\n',
      });
    });
  });

  it('gives the header alone for a source that ends with no event', async () => {
    const lines = await lastValueFrom(of().pipe(toAsciicast({ columns: 10, rows: 5 }), toArray()));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ version: 2, width: 10, height: 5 });
  });

  it('checks its options before anything is subscribed', () => {
    expect(() => toAsciicast({ columns: 0 })).toThrow(
      'Expected the `columns` option to be a positive integer, got `0` (number)',
    );
    expect(() => toAsciicast({ title: 3 as unknown as string })).toThrow(
      'Expected the `title` option to be a string, got `3` (number)',
    );
    expect(() => toAsciicast({ scheduler: {} as never })).toThrow(
      'Expected the `scheduler` option to be a SchedulerLike',
    );
    expect(() => toAsciicast({ width: 80 } as never)).toThrow('Unknown `width` option');
  });
});

describe.skipIf(asciinemaPath === undefined || !needs('script'))('toAsciicast of a real terminal run', () => {
  const folder = mkdtempSync(join(tmpdir(), 'sluice-cast-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('writes a file that `asciinema cat` prints as the run printed it', async () => {
    const size = { columns: 60, rows: 10 };
    const lines = await lastValueFrom(
      exec('sh', ['-c', 'printf "hello\\n"; printf "world\\n"'], { tty: size }).pipe(
        toAsciicast({ ...size, title: 'hello world' }),
        toArray(),
      ),
    );
    const file = join(folder, 'run.cast');
    writeFileSync(file, lines.join(''));
    expect(await asciinemaCat(file)).toBe('hello\nworld\n');
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      version: 2,
      width: 60,
      height: 10,
      title: 'hello world',
    });
  });
});
