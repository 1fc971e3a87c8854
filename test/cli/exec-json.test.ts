import { Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NdjsonWriter, textFrameEncoder } from '../../src/cli/exec-json.js';
import { bridgeCodec } from '../../src/kernel/protocol/bridge-codec.js';
import { encodeFrame } from '../../src/kernel/protocol/hostcall-frame.js';
import { streamChunk } from '../../src/kernel/protocol/hostcall-outcome.js';
import { serdeCodec } from '../../src/kernel/protocol/serde-codec.js';
import { macrotask } from '../support/macrotask.js';

/** A real Writable that records each write() it is handed and completes it only when told to. */
function slowSink(highWaterMark: number) {
  const writes: string[] = [];
  const pending: (() => void)[] = [];
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _encoding, callback) {
      writes.push(chunk.toString());
      pending.push(callback);
    },
  });
  const release = () => {
    for (let done = pending.shift(); done; done = pending.shift()) done();
  };
  return { stream, writes, release };
}

describe('NdjsonWriter', () => {
  it('writes the lines given during one turn of the event loop as one write, in order', async () => {
    const writes: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        writes.push(chunk.toString());
        callback();
      },
    });
    const out = new NdjsonWriter(stream);
    for (let n = 0; n < 1000; n += 1) expect(out.write(`{"n":${n}}\n`)).toBeUndefined();
    expect(writes).toEqual([]);
    await macrotask();
    expect(writes).toHaveLength(1);
    expect(writes[0]?.split('\n').slice(0, 3)).toEqual(['{"n":0}', '{"n":1}', '{"n":2}']);
    expect(writes[0]?.split('\n')).toHaveLength(1001);
    out.write('{"n":1000}\n');
    await macrotask();
    expect(writes).toEqual([expect.any(String), '{"n":1000}\n']);
  });

  it('sends a batch that reaches 64 KiB at once', () => {
    const { stream, writes, release } = slowSink(1 << 22);
    const out = new NdjsonWriter(stream);
    const line = `${'x'.repeat(1023)}\n`;
    for (let n = 0; n < 64; n += 1) out.write(line);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toHaveLength(64 * 1024);
    release();
  });

  it("returns a promise while the stream is full, which settles on 'drain' (the caller's pause)", async () => {
    const { stream, writes, release } = slowSink(16);
    const out = new NdjsonWriter(stream);
    out.write('{"a":"more than sixteen bytes"}\n');
    await macrotask(); // the batch goes out and fills the stream's buffer
    expect(writes).toHaveLength(1);
    const full = out.write('{"b":2}\n');
    expect(full).toBeInstanceOf(Promise);
    let settled = false;
    void full?.then(() => {
      settled = true;
    });
    await macrotask();
    expect(settled).toBe(false);
    release();
    await full;
    expect(settled).toBe(true);
    release();
    await out.flush();
    expect(writes.join('')).toBe('{"a":"more than sixteen bytes"}\n{"b":2}\n');
  });

  it('flush() writes what is queued now and waits for room; a destroyed stream is not written to', async () => {
    const { stream, writes, release } = slowSink(1 << 20);
    const out = new NdjsonWriter(stream);
    out.write('{"last":true}\n');
    await out.flush();
    expect(writes).toEqual(['{"last":true}\n']);
    release();
    stream.destroy();
    out.write('{"after":true}\n');
    await out.flush();
    expect(writes).toEqual(['{"last":true}\n']);
  });
});

describe('textFrameEncoder', () => {
  for (const codec of [bridgeCodec, serdeCodec]) {
    it(`writes exactly the frame encodeFrame writes (${codec.name})`, () => {
      fc.assert(
        fc.property(
          fc.string({ minLength: 1, maxLength: 12 }),
          fc.nat({ max: Number.MAX_SAFE_INTEGER }),
          fc.string({ unit: 'binary' }),
          (callId, sequence, text) => {
            const expected = encodeFrame({ callId, outcome: streamChunk(sequence, text, false) }, codec);
            expect(textFrameEncoder(callId, codec)(sequence, text)).toBe(expected);
          },
        ),
        { numRuns: 300 },
      );
    });
  }

  it('escapes what JSON.stringify escapes, on the plain-line fast path and off it', () => {
    const encode = textFrameEncoder('call-1', bridgeCodec);
    const texts = [
      'plain line\n',
      'no newline',
      '',
      '\n',
      'two\n\n',
      'crlf\r\n',
      'tab\there\n',
      'a "quoted" line\n',
      'back\\slash\n',
      'caf\u00e9 \u2028 \u007f\n',
      'pair \ud83d\ude00\n',
      'lone \ud800 high\n',
      'lone \udc00 low',
      '\u0000nul\n',
    ];
    for (const text of texts) {
      const expected = encodeFrame({ callId: 'call-1', outcome: streamChunk(7, text, false) }, bridgeCodec);
      expect(encode(7, text)).toBe(expected);
      expect(JSON.parse(encode(7, text)).outcome.chunk).toBe(text);
    }
  });

  it('falls back to encodeFrame when the call id itself holds the stand-in sequence', () => {
    const callId = 'run-987654321012345';
    const encode = textFrameEncoder(callId, bridgeCodec);
    expect(encode(3, 'a "quoted" line\n')).toBe(
      encodeFrame({ callId, outcome: streamChunk(3, 'a "quoted" line\n', false) }, bridgeCodec),
    );
  });
});
