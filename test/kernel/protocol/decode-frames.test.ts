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
import {
  decodeFrames,
  encodeFrame,
  type HostcallFrame,
  serdeCodec,
  streamChunk,
} from '../../../src/kernel/protocol/index.js';
import { needs } from '../../support/system-tools.js';
import { newTestScheduler } from '../../support/test-scheduler.js';

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
