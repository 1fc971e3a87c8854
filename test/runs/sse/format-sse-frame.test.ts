import { describe, expect, it } from 'vitest';
import { SluiceError } from '../../../src/core/errors/sluice-error.js';
import { formatSseFrame } from '../../../src/runs/sse/format-sse-frame.js';
import { encodeChunkEvent, encodeFailure, encodeGap } from '../../../src/runs/sse/run-frames.js';
import { SseParser } from '../../../src/runs/sse/sse-parser.js';

describe('formatSseFrame', () => {
  it('writes id, event, retry and data lines, then a blank line', () => {
    expect(formatSseFrame({ id: 7, event: 'stdout', retry: 500, data: 'hello' })).toBe(
      'id: 7\nevent: stdout\nretry: 500\ndata: hello\n\n',
    );
  });

  it('splits multi-line data into one data line per line, for LF, CRLF and CR', () => {
    expect(formatSseFrame({ data: 'a\nb\r\nc\rd' })).toBe('data: a\ndata: b\ndata: c\ndata: d\n\n');
    expect(formatSseFrame({ data: '' })).toBe('data: \n\n');
    expect(formatSseFrame({ data: 'x\n' })).toBe('data: x\ndata: \n\n');
  });

  it('writes comments (heartbeats) as colon lines', () => {
    expect(formatSseFrame({ comment: 'heartbeat' })).toBe(': heartbeat\n\n');
  });

  it('refuses an id or event that would parse differently', () => {
    expect(() => formatSseFrame({ id: '1\n2' })).toThrow(
      new TypeError('Expected the `id` field to be free of line breaks and NUL, got `1\\n2` (string)'),
    );
    expect(() => formatSseFrame({ event: 'a\rb' })).toThrow(/`event` field/);
    expect(() => formatSseFrame({ id: 'a\0b' })).toThrow(TypeError);
    expect(() => formatSseFrame({ retry: -1 })).toThrow(
      new TypeError('Expected the `retry` field to be a non-negative integer, got `-1` (number)'),
    );
  });

  it('round-trips any data through the parser, whatever the chunking', () => {
    const data = 'first\nsecond\r\n\n  indented\rlast: with colon';
    const frame = formatSseFrame({ id: 42, event: 'stderr', data });
    for (let size = 1; size <= frame.length; size += 1) {
      const parser = new SseParser();
      const messages = [];
      for (let at = 0; at < frame.length; at += size)
        messages.push(...parser.push(frame.slice(at, at + size)));
      expect(messages).toEqual([
        { event: 'stderr', data: data.replace(/\r\n|\r/g, '\n'), lastEventId: '42' },
      ]);
    }
  });
});

describe('encodeChunkEvent / encodeGap / encodeFailure', () => {
  it("uses the sequence as id, the kind as event and the event's JSON as data", () => {
    const event = {
      sequence: 3,
      kind: 'stdout',
      content: 'a\nb "quoted"',
      metadata: { partial: true },
      isFinal: false,
    };
    const frame = encodeChunkEvent(event);
    expect(frame.startsWith('id: 3\nevent: stdout\ndata: {')).toBe(true);
    const [message] = new SseParser().push(frame);
    expect(message?.lastEventId).toBe('3');
    expect(JSON.parse(message?.data ?? '')).toEqual(event);
  });

  it('writes gap and failure control events without an id', () => {
    expect(encodeGap({ from: 2, to: 9 })).toBe('event: gap\ndata: {"from":2,"to":9}\n\n');
    const failure = encodeFailure(new SluiceError('EXEC_FAILED', 'exit code 1'));
    expect(failure).toBe(
      'event: failure\ndata: {"code":"EXEC_FAILED","name":"SluiceError","message":"exit code 1"}\n\n',
    );
    expect(encodeFailure('boom')).toContain('"code":"STREAM_FAILED"');
  });
});
