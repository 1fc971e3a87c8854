import { spawn } from 'node:child_process';
import { Observable, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  type Demand,
  demandOf,
  isInvalidFrameError,
  subscribeWithDemand,
  Valve,
} from '../../../src/core/index.js';
import { bridgeCodec } from '../../../src/kernel/protocol/bridge-codec.js';
import { createFrameDecoder, decodeFrames } from '../../../src/kernel/protocol/frame-decoder.js';
import { encodeFrame, type HostcallFrame } from '../../../src/kernel/protocol/hostcall-frame.js';
import { failure, streamChunk, success } from '../../../src/kernel/protocol/hostcall-outcome.js';
import { serdeCodec } from '../../../src/kernel/protocol/serde-codec.js';
import { needs } from '../../support/system-tools.js';
import { newTestScheduler } from '../../support/test-scheduler.js';

const frames: HostcallFrame[] = [
  { callId: 'hc-42', outcome: streamChunk(0, 'héllo wörld\n', false) },
  { callId: 'hc-99', outcome: streamChunk(0, { line: '日本語のテキスト', emoji: '😀🎉' }, true) },
  { callId: 'hc-42', outcome: streamChunk(1, '€ 💶', false) },
  { callId: 'hc-7', outcome: failure('EXEC_FAILED', 'exit code 1 — ✗') },
  { callId: 'hc-42', outcome: streamChunk(Number.MAX_SAFE_INTEGER, null, true) },
  { callId: 'hc-8', outcome: success(null) },
];
const encoder = new TextEncoder();

/** The sample as bytes: CRLF after some lines, LF after others, a blank line, and no newline at the very end. */
function sample(codec: typeof serdeCodec): Uint8Array {
  const lines = frames.map((frame) => encodeFrame(frame, codec));
  const text = lines.map((line, index) => (index % 2 === 0 ? line.replace(/\n$/, '\r\n') : line)).join('');
  return encoder.encode(`\n${text.replace(/\r?\n$/, '')}`);
}

function decodeInPieces(codec: typeof serdeCodec, pieces: Array<Uint8Array | string>) {
  const decoder = createFrameDecoder(codec);
  const out = pieces.flatMap((piece) => decoder.push(piece));
  return [...out, ...decoder.end()];
}

describe('createFrameDecoder', () => {
  for (const codec of [serdeCodec, bridgeCodec]) {
    const bytes = sample(codec);

    it(`${codec.name}: the sample contains multi-byte UTF-8 and CRLF`, () => {
      expect(bytes.length).toBeGreaterThan(new TextDecoder().decode(bytes).length);
      expect(bytes.includes(0x0d)).toBe(true);
      expect(decodeInPieces(codec, [bytes])).toEqual(frames);
    });

    it(`${codec.name}: yields the same frames however the bytes are split in two`, () => {
      for (let at = 0; at <= bytes.length; at++) {
        const result = decodeInPieces(codec, [bytes.subarray(0, at), bytes.subarray(at)]);
        expect(result, `split at byte ${at}`).toEqual(frames);
      }
    });

    it(`${codec.name}: yields the same frames from one byte at a time and from three pieces`, () => {
      expect(
        decodeInPieces(
          codec,
          Array.from(bytes, (byte) => Uint8Array.of(byte)),
        ),
      ).toEqual(frames);
      for (let first = 0; first <= bytes.length; first += 7) {
        for (let second = first; second <= bytes.length; second += 5) {
          const pieces = [bytes.subarray(0, first), bytes.subarray(first, second), bytes.subarray(second)];
          expect(decodeInPieces(codec, pieces), `split at ${first} and ${second}`).toEqual(frames);
        }
      }
    });

    it(`${codec.name}: yields the same frames from strings split at every UTF-16 offset`, () => {
      const text = new TextDecoder().decode(bytes);
      for (let at = 0; at <= text.length; at++) {
        expect(decodeInPieces(codec, [text.slice(0, at), text.slice(at)]), `split at ${at}`).toEqual(frames);
      }
    });
  }

  it('returns a frame as soon as its newline arrives', () => {
    const decoder = createFrameDecoder(serdeCodec);
    const line = encodeFrame(frames[0]!, serdeCodec);
    expect(decoder.push(line.slice(0, -1))).toEqual([]);
    expect(decoder.push('\n')).toEqual([frames[0]]);
  });

  it('turns each malformed line into an error value and keeps the following frames', () => {
    const decoder = createFrameDecoder(serdeCodec);
    const good = (index: number) => encodeFrame(frames[index]!, serdeCodec);
    const pieces = [
      good(0),
      'not json\n',
      good(1),
      '{"call_id":"hc-1","outcome":{"StreamChunk":{"sequence":-1,"chunk":null,"is_final":true}}}\n',
      encoder.encode('{"call_id":"\xff"}\n').map((byte) => (byte === 0xc3 ? 0xff : byte)),
      good(2),
    ];
    const results = pieces.flatMap((piece) => decoder.push(piece));
    expect(results).toHaveLength(6);
    expect(results[0]).toEqual(frames[0]);
    expect(results[2]).toEqual(frames[1]);
    expect(results[5]).toEqual(frames[2]);
    const errors = [results[1], results[3], results[4]];
    expect(errors.every(isInvalidFrameError)).toBe(true);
    expect((results[1] as Error).message).toMatch(
      /^Invalid frame: the frame is not valid JSON \(.*\), got "not json" \(string\)$/,
    );
    expect((results[3] as Error).message).toBe(
      'Invalid frame: `outcome.StreamChunk.sequence` must be a non-negative safe integer, got -1 (number)',
    );
    expect((results[4] as Error).message).toMatch(/^Invalid frame: the frame is not valid UTF-8, got /);
  });

  it('accepts a line of exactly maxFrameBytes and rejects one byte more, as soon as it crosses the limit', () => {
    const line = encodeFrame({ callId: 'hc-1', outcome: success('é'.repeat(40)) }, serdeCodec);
    const size = encoder.encode(line).length - 1;
    const exact = createFrameDecoder(serdeCodec, { maxFrameBytes: size });
    expect(exact.push(line)).toEqual([{ callId: 'hc-1', outcome: success('é'.repeat(40)) }]);

    const tight = createFrameDecoder(serdeCodec, { maxFrameBytes: size - 1 });
    const head = encoder.encode(line.slice(0, -1));
    expect(tight.push(head.subarray(0, size - 1))).toEqual([]);
    const [error, ...rest] = tight.push(head.subarray(size - 1));
    expect(rest).toEqual([]);
    expect(isInvalidFrameError(error)).toBe(true);
    expect((error as Error).message).toBe(
      `Invalid frame: the frame is longer than \`maxFrameBytes\` (${size - 1} bytes), got ${JSON.stringify(new TextDecoder().decode(head.subarray(0, 64)))} (string)`,
    );
    expect(tight.push('\n')).toEqual([]);
    expect(tight.push(encodeFrame(frames[3]!, serdeCodec))).toEqual([frames[3]]);
  });

  it('reports garbage without newlines once, discards it, and recovers at the next newline', () => {
    const decoder = createFrameDecoder(serdeCodec, { maxFrameBytes: 1024 });
    const garbage = new Uint8Array(64 * 1024).fill(0x61);
    const results = [];
    for (let i = 0; i < 256; i++) results.push(...decoder.push(garbage)); // 16 MiB, no newline
    expect(results).toHaveLength(1);
    expect(isInvalidFrameError(results[0])).toBe(true);
    expect(decoder.push(`aaaa\n${encodeFrame(frames[5]!, serdeCodec)}`)).toEqual([frames[5]]);
  });

  it('decodes a final line without a newline at end(), then starts afresh', () => {
    const decoder = createFrameDecoder(bridgeCodec);
    const line = encodeFrame(frames[1]!, bridgeCodec).slice(0, -1);
    expect(decoder.push(line)).toEqual([]);
    expect(decoder.end()).toEqual([frames[1]]);
    expect(decoder.end()).toEqual([]);
    expect(decoder.push(`${line}\n`)).toEqual([frames[1]]);
  });

  describe('nesting depth', () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const line = (depth: number) => `{"callId":"hc-1","outcome":{"ok":true,"value":${nested(depth)}}}\n`;

    it('refuses a depth bomb under maxFrameBytes in milliseconds, without building it', () => {
      // 4 million nested arrays: 8 MB, under the default 8 MiB limit. JSON.parse would build ~1.2 GB.
      const bomb = encoder.encode(line(4_000_000));
      expect(bomb.length).toBeLessThan(8 * 1024 * 1024);
      const decoder = createFrameDecoder(bridgeCodec);
      const heapBefore = process.memoryUsage().heapUsed;
      const started = performance.now();
      const results = [];
      for (let i = 0; i < 8; i++) results.push(...decoder.push(bomb));
      const perLine = (performance.now() - started) / 8;
      expect(results).toHaveLength(8);
      expect(results.every(isInvalidFrameError)).toBe(true);
      expect((results[0] as Error).message).toMatch(
        /^Invalid frame: the frame nests arrays and objects deeper than `maxFrameDepth` \(128 levels\), got "\{/,
      );
      // Building it would take seconds a line (and the heap below): a second is generous on a loaded machine.
      expect(perLine).toBeLessThan(1000);
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024);
      expect(decoder.push(encodeFrame(frames[0]!, bridgeCodec))).toEqual([frames[0]]);
    });

    it('accepts exactly maxFrameDepth levels (the envelope counts), refuses one more', () => {
      // The envelope and the outcome are two levels: a value nested 126 deep makes 128.
      expect(createFrameDecoder(bridgeCodec).push(line(126))).toEqual([
        { callId: 'hc-1', outcome: success(JSON.parse(nested(126))) },
      ]);
      expect(createFrameDecoder(bridgeCodec).push(line(127)).map(isInvalidFrameError)).toEqual([true]);
      const shallow = createFrameDecoder(bridgeCodec, { maxFrameDepth: 4 });
      expect(shallow.push(line(2))).toHaveLength(1);
      expect(shallow.push(line(3)).map(isInvalidFrameError)).toEqual([true]);
    });

    it('does not count brackets inside strings', () => {
      const text = '[[[[[[[[\\"]]]]'.repeat(100);
      const frame = { callId: 'hc-1', outcome: success(text) };
      expect(
        createFrameDecoder(bridgeCodec, { maxFrameDepth: 3 }).push(encodeFrame(frame, bridgeCodec)),
      ).toEqual([frame]);
    });
  });

  it('validates its options and its input type', () => {
    expect(() => createFrameDecoder(serdeCodec, { maxFrameBytes: 0 })).toThrow(
      'Expected the `maxFrameBytes` option to be a positive integer, got `0` (number)',
    );
    expect(() => createFrameDecoder(serdeCodec, { maxFrameDepth: 0 })).toThrow(
      'Expected the `maxFrameDepth` option to be a positive integer, got `0` (number)',
    );
    expect(() => createFrameDecoder(serdeCodec, { maxFrameBytes: 1.5 })).toThrow(TypeError);
    expect(() => createFrameDecoder(serdeCodec).push(42 as never)).toThrow(
      'Expected the `piece` argument to be a Uint8Array or a string, got `42` (number)',
    );
  });
});

const frame = (sequence: number, isFinal = false): HostcallFrame => ({
  callId: 'hc-42',
  outcome: streamChunk(sequence, `line ${sequence} ✓\n`, isFinal),
});
const line = (sequence: number, isFinal = false) => encodeFrame(frame(sequence, isFinal), serdeCodec);

describe('decodeFrames', () => {
  it('emits each frame when its line completes, across pieces', () => {
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const l0 = line(0);
      const source = cold('-a-b-c-|', {
        a: l0.slice(0, 10),
        b: l0.slice(10) + line(1).slice(0, 3),
        c: line(1).slice(3),
      });
      const expected = '   ---x-y-|';
      const subs = '       ^------!';
      expectObservable(source.pipe(decodeFrames(serdeCodec))).toBe(expected, { x: frame(0), y: frame(1) });
      expectSubscriptions(source.subscriptions).toBe(subs);
    });
  });

  it('decodes a last line without a newline when the source completes', () => {
    newTestScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a--|', { a: line(0, true).slice(0, -1) });
      expectObservable(source.pipe(decodeFrames(serdeCodec))).toBe('----(x|)', { x: frame(0, true) });
    });
  });

  it("errors with the malformed line's InvalidFrameError and unsubscribes from the source", () => {
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-c-|', { a: line(0), b: '{"call_id":"hc-42"}\n', c: line(1) });
      const subs = '       ^--!';
      const error = expect.objectContaining({
        code: 'INVALID_FRAME',
        message: 'Invalid frame: `outcome` is required, got nothing',
      });
      expectObservable(source.pipe(decodeFrames(serdeCodec))).toBe('-x-#', { x: frame(0) }, error);
      expectSubscriptions(source.subscriptions).toBe(subs);
    });
  });

  it("with invalidFrames: 'skip', reports malformed lines and keeps the following frames", () => {
    const reported: unknown[] = [];
    newTestScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-b-c-|', { a: line(0), b: 'oops\n{"call_id":5}\n', c: line(1) });
      const decoded = source.pipe(
        decodeFrames(serdeCodec, { invalidFrames: 'skip', onInvalidFrame: (error) => reported.push(error) }),
      );
      expectObservable(decoded).toBe('-x---y-|', { x: frame(0), y: frame(1) });
    });
    expect(reported).toHaveLength(2);
    expect(reported.every(isInvalidFrameError)).toBe(true);
    expect((reported[1] as Error).message).toBe(
      'Invalid frame: `call_id` must be a non-empty string, got 5 (number)',
    );
  });

  it('passes unsubscription through', () => {
    newTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a-b-c-d-|', { a: line(0), b: line(1), c: line(2), d: line(3) });
      const unsub = '     ----!';
      expectObservable(source.pipe(decodeFrames(serdeCodec)), unsub).toBe('-x-y-', {
        x: frame(0),
        y: frame(1),
      });
      expectSubscriptions(source.subscriptions).toBe('^---!');
    });
  });

  it('stops listening to a synchronous source when unsubscribed', () => {
    const sideEffects: number[] = [];
    const synchronousSource = new Observable<string>((subscriber) => {
      for (let i = 0; !subscriber.closed && i < 10; i++) {
        sideEffects.push(i);
        subscriber.next(line(i));
      }
      subscriber.complete();
    });
    synchronousSource.pipe(decodeFrames(serdeCodec), take(3)).subscribe();
    expect(sideEffects).toEqual([0, 1, 2]);
  });

  it("hands the consumer's demand to the producer", () => {
    const valve = new Valve();
    let seen: Demand | undefined;
    const source = new Observable<string>((subscriber) => {
      seen = demandOf(subscriber);
    });
    subscribeWithDemand(source.pipe(decodeFrames(serdeCodec)), valve, {}).unsubscribe();
    expect(seen).toBe(valve);
  });

  it('validates its options before anything subscribes', () => {
    expect(() => decodeFrames(serdeCodec, { invalidFrames: 'ignore' as never })).toThrow(
      "Expected the `invalidFrames` option to be 'error' or 'skip', got `ignore` (string)",
    );
    expect(() => decodeFrames(serdeCodec, { onInvalidFrame: 'log' as never })).toThrow(
      'Expected the `onInvalidFrame` option to be a function, got `log` (string)',
    );
    expect(() => decodeFrames(serdeCodec, { maxFrameBytes: -1 })).toThrow(
      'Expected the `maxFrameBytes` option to be a positive integer, got `-1` (number)',
    );
    expect(() => decodeFrames(serdeCodec, { onInvalid: () => {} } as never)).toThrow(
      'Unknown `onInvalid` option (known options: invalidFrames, onInvalidFrame, maxFrameBytes, maxFrameDepth)',
    );
  });

  it.skipIf(!needs('python3'))(
    'decodes frames a real child writes to a real pipe a few bytes at a time',
    async () => {
      const expected = Array.from({ length: 40 }, (_, i) => frame(i, i === 39));
      const bytes = Buffer.from(expected.map((f) => encodeFrame(f, serdeCodec)).join(''));
      // python3 flushes every 3 bytes, so frames (and multi-byte characters) arrive in many reads.
      const script =
        'import sys\nd=sys.stdin.buffer.read()\nfor i in range(0,len(d),3):\n sys.stdout.buffer.write(d[i:i+3]); sys.stdout.buffer.flush()';
      const child = spawn('python3', ['-c', script], { stdio: ['pipe', 'pipe', 'inherit'] });
      child.stdin.end(bytes);
      let reads = 0;
      const stdout = new Observable<Uint8Array>((subscriber) => {
        const onData = (piece: Uint8Array) => {
          reads += 1;
          subscriber.next(piece);
        };
        child.stdout.on('data', onData);
        child.stdout.once('end', () => subscriber.complete());
        return () => child.stdout.off('data', onData);
      });
      const decoded = await new Promise<HostcallFrame[]>((resolve, reject) =>
        stdout.pipe(decodeFrames(serdeCodec), toArray()).subscribe({ next: resolve, error: reject }),
      );
      expect(decoded).toEqual(expected);
      expect(reads).toBeGreaterThan(1);
    },
  );
});
