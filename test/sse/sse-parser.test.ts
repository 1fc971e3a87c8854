import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseParser } from '../../src/sse/sse-parser.js';

describe('SseParser', () => {
  it('dispatches on a blank line, joining data lines with LF', () => {
    const parser = new SseParser();
    expect(parser.push('data: a\ndata: b\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'message', data: 'a\nb', lastEventId: '' }]);
  });

  it('ignores comments (heartbeats) and frames without data, but keeps their id and retry', () => {
    const parser = new SseParser();
    expect(parser.push(': heartbeat\n\nid: 5\nretry: 300\n\n')).toEqual([]);
    expect(parser.lastEventId).toBe('5');
    expect(parser.retry).toBe(300);
    expect(parser.push('data: x\n\n')).toEqual([{ event: 'message', data: 'x', lastEventId: '5' }]);
  });

  it('handles CRLF split across chunks, a BOM, fields without colon and a single leading space', () => {
    const parser = new SseParser();
    expect(parser.push('\uFEFFevent: e\r')).toEqual([]);
    expect(parser.push('\ndata:  two spaces\r\ndata\r\n\r\n')).toEqual([
      { event: 'e', data: ' two spaces\n', lastEventId: '' },
    ]);
  });

  it('ignores an id with NUL and a non-numeric retry, and resets the event type after a dispatch', () => {
    const parser = new SseParser();
    const messages = parser.push('id: 1\nevent: a\ndata: 1\n\nid: 2\0\nretry: 1x\ndata: 2\n\n');
    expect(messages).toEqual([
      { event: 'a', data: '1', lastEventId: '1' },
      { event: 'message', data: '2', lastEventId: '1' },
    ]);
    expect(parser.retry).toBeUndefined();
  });

  it('gives the same messages however the text is cut into chunks, with LF, CR and CRLF line ends', () => {
    const field = fc.constantFrom(
      'data: a',
      'data: b c',
      'data:',
      'event: x',
      'id: 7',
      ': comment',
      'retry: 5',
      '',
    );
    const ending = fc.constantFrom('\n', '\r', '\r\n');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(field, ending), { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (lines, cuts) => {
          const text = lines.map(([line, end]) => line + end).join('');
          const whole = new SseParser().push(text);
          const parser = new SseParser();
          const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
          const pieces: string[] = [];
          let from = 0;
          for (const point of points) {
            pieces.push(text.slice(from, point));
            from = point;
          }
          pieces.push(text.slice(from));
          expect(pieces.flatMap((piece) => parser.push(piece))).toEqual(whole);
        },
      ),
    );
  });
});
