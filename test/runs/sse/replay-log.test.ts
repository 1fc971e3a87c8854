import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSequenceError } from '../../../src/core/errors/sequence-error.js';
import { ReplayLog } from '../../../src/runs/sse/replay-log.js';
import { encodeChunkEvent } from '../../../src/runs/sse/run-frames.js';
import { chunk } from '../../support/chunk.js';

const event = (sequence: number, content = `line ${sequence}`, isFinal = false) =>
  chunk(sequence, content, isFinal);

describe('ReplayLog', () => {
  it('keeps at most maxEvents, evicting the oldest', () => {
    const log = new ReplayLog({ maxEvents: 3, maxBytes: 1 << 20 });
    for (let sequence = 0; sequence < 5; sequence += 1) log.append(event(sequence));
    expect(log.size).toBe(3);
    expect(log.oldest).toBe(2);
    expect(log.next).toBe(5);
    expect(log.get(1)).toBeUndefined();
    expect(log.get(2)?.frame).toBe(encodeChunkEvent(event(2)));
    expect(log.get(5)).toBeUndefined();
    expect(log.full).toBe(true);
  });

  it('keeps at most maxBytes of frames, but always the newest event', () => {
    const size = Buffer.byteLength(encodeChunkEvent(event(0, 'x'.repeat(100))));
    const log = new ReplayLog({ maxEvents: 100, maxBytes: size * 2 + 1 });
    for (let sequence = 0; sequence < 6; sequence += 1) log.append(event(sequence, 'x'.repeat(100)));
    expect(log.size).toBe(2);
    expect(log.bytes).toBeLessThanOrEqual(size * 2 + 1);
    log.append(event(6, 'y'.repeat(10_000)));
    expect(log.size).toBe(1);
    expect(log.oldest).toBe(6);
  });

  it('holds the bounds for any sizes (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 4000 }),
        fc.array(fc.string({ maxLength: 300 }), { maxLength: 80 }),
        (maxEvents, maxBytes, contents) => {
          const log = new ReplayLog({ maxEvents, maxBytes });
          contents.forEach((content, sequence) => {
            log.append(event(sequence, content));
            expect(log.size).toBeGreaterThanOrEqual(1);
            expect(log.size).toBeLessThanOrEqual(maxEvents);
            if (log.size > 1) expect(log.bytes).toBeLessThanOrEqual(maxBytes);
            expect(log.oldest + log.size).toBe(sequence + 1);
            for (let at = log.oldest; at <= sequence; at += 1) expect(log.get(at)?.sequence).toBe(at);
          });
        },
      ),
    );
  });

  it('refuses gaps, reordering and anything after the final event', () => {
    const log = new ReplayLog({ maxEvents: 10, maxBytes: 1 << 20 });
    log.append(event(0));
    expect(() => log.append(event(2))).toThrow(expect.objectContaining({ code: 'STREAM_SEQUENCE' }));
    expect(() => log.append(event(0))).toThrow(/duplicate/);
    log.append(event(1, 'done', true));
    expect(log.ended).toBe(true);
    let caught: unknown;
    try {
      log.append(event(2));
    } catch (error) {
      caught = error;
    }
    expect(isSequenceError(caught)).toBe(true);
  });

  it('records a failure once, after the retained events', () => {
    const log = new ReplayLog({ maxEvents: 10, maxBytes: 1 << 20 });
    log.append(event(0));
    log.fail(new Error('boom'));
    log.fail(new Error('again'));
    expect(log.ended).toBe(true);
    expect(log.failure).toContain('"message":"boom"');
  });
});
