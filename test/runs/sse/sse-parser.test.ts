import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SseMessage, SseParser } from '../../../src/runs/sse/sse-parser.js';

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

  it('gives what a reference of the spec gives, however the text is cut into chunks, with LF, CR and CRLF line ends', () => {
    const known = fc.constantFrom(
      'data: a',
      'data: b c',
      'data:',
      'data',
      'data:  two',
      'event: x',
      'event',
      'id: 7',
      'id:8',
      'id: 9\0',
      'id',
      ': comment',
      'retry: 5',
      'retry:12',
      'retry: 1x',
      '',
    );
    // Any other line: unknown fields, colons and spaces in odd places, NUL.
    const other = fc.string({
      unit: fc.constantFrom('d', 'a', 't', 'e', 'i', 'r', 'y', ':', ' ', '0', '\0'),
    });
    const ending = fc.constantFrom('\n', '\r', '\r\n');
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.tuple(fc.oneof(known, other), ending), { maxLength: 30 }),
        fc.oneof(fc.constant(''), known, other),
        fc.array(fc.nat(), { maxLength: 8 }),
        (bom, lines, unterminated, cuts) => {
          const text = (bom ? '\uFEFF' : '') + lines.map(([line, end]) => line + end).join('') + unterminated;
          const expected = referenceParse(text);
          const parser = new SseParser();
          const messages = cutAt(text, cuts).flatMap((piece) => parser.push(piece));
          expect(messages).toEqual(expected.messages);
          expect(parser.lastEventId).toBe(expected.lastEventId);
          expect(parser.retry).toBe(expected.retry);
        },
      ),
    );
  });
});

/** `text` cut at the offsets `cuts` (modulo its length + 1). */
function cutAt(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const point of points) {
    pieces.push(text.slice(from, point));
    from = point;
  }
  pieces.push(text.slice(from));
  return pieces;
}

/**
 * The WHATWG HTML rules for interpreting an event stream, written as the spec reads, on the whole
 * text at once: a leading BOM is dropped; lines end with CRLF, LF or CR; a line not yet ended
 * waits (as does a CR at the very end, which may be half a CRLF: a stream parser cannot tell
 * yet); `:` starts a comment; `field: value` (one leading space dropped, no colon: the whole
 * line is the field and the value is empty); `data` appends value + LF to the data buffer;
 * `event` sets the event type; `id` without NUL sets the last event id; `retry` of ASCII digits
 * only sets the reconnection time; a blank line dispatches when the data buffer is not empty
 * (without its last LF), and empties the data and event type buffers either way.
 */
function referenceParse(stream: string): { messages: SseMessage[]; lastEventId: string; retry?: number } {
  const text = stream.startsWith('\uFEFF') ? stream.slice(1) : stream;
  const messages: SseMessage[] = [];
  let data = '';
  let eventType = '';
  let lastEventId = '';
  let retry: number | undefined;
  for (const [, line] of text.matchAll(/([^\r\n]*)(?:\r\n|\n|\r(?!$))/g)) {
    if (line === undefined) continue;
    if (line === '') {
      if (data !== '') {
        messages.push({
          event: eventType === '' ? 'message' : eventType,
          data: data.slice(0, -1),
          lastEventId,
        });
      }
      data = '';
      eventType = '';
    } else if (!line.startsWith(':')) {
      const colon = line.indexOf(':');
      const name = colon === -1 ? line : line.slice(0, colon);
      const raw = colon === -1 ? '' : line.slice(colon + 1);
      const value = raw.startsWith(' ') ? raw.slice(1) : raw;
      if (name === 'data') data += `${value}\n`;
      else if (name === 'event') eventType = value;
      else if (name === 'id' && !value.includes('\0')) lastEventId = value;
      else if (name === 'retry' && /^[0-9]+$/.test(value)) retry = Number(value);
    }
  }
  return { messages, lastEventId, ...(retry === undefined ? {} : { retry }) };
}
