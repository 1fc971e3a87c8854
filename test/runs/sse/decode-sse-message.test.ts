import { describe, expect, it } from 'vitest';
import { isInvalidFrameError } from '../../../src/core/errors/invalid-frame-error.js';
import { isSequenceError } from '../../../src/core/errors/sequence-error.js';
import { isSluiceError } from '../../../src/core/errors/sluice-error.js';
import { decodeSseMessage } from '../../../src/runs/sse/decode-sse-message.js';

const data = (value: unknown) => JSON.stringify(value);

describe('decodeSseMessage', () => {
  it('decodes a chunk event, with or without metadata', () => {
    const event = {
      sequence: 2,
      kind: 'end',
      content: null,
      metadata: { reason: 'cancelled' },
      isFinal: true,
    };
    expect(decodeSseMessage({ event: 'end', lastEventId: '2', data: data(event) })).toEqual({
      type: 'event',
      event,
    });
    const plain = { sequence: 0, kind: 'stdout', content: 'a', isFinal: false };
    expect(decodeSseMessage({ event: 'stdout', lastEventId: '0', data: data(plain) })).toEqual({
      type: 'event',
      event: plain,
    });
  });

  it('turns gap and failure control events into typed errors', () => {
    const gap = decodeSseMessage({ event: 'gap', lastEventId: '', data: data({ from: 4, to: 7 }) });
    expect(gap.type === 'error' && isSequenceError(gap.error) && gap.error.info).toEqual({
      rule: 'gap',
      expected: 4,
      received: 8,
    });
    const failure = decodeSseMessage({
      event: 'failure',
      lastEventId: '3',
      data: data({ code: 'TIMEOUT', message: 'late' }),
    });
    expect(failure.type === 'error' && isSluiceError(failure.error, 'TIMEOUT')).toBe(true);
  });

  it('rejects malformed frames with an InvalidFrameError naming the field', () => {
    const attempt = (message: { event: string; lastEventId: string; data: string }) => {
      try {
        decodeSseMessage(message);
      } catch (error) {
        expect(isInvalidFrameError(error)).toBe(true);
        return (error as Error).message;
      }
      return 'no error';
    };
    expect(attempt({ event: 'stdout', lastEventId: '0', data: '{' })).toMatch(
      /^Invalid frame: `data` is not JSON/,
    );
    expect(
      attempt({
        event: 'stdout',
        lastEventId: '0',
        data: data({ sequence: -1, kind: 'stdout', content: 1, isFinal: false }),
      }),
    ).toMatch(/`data.sequence`.*got -1 \(number\)/);
    expect(
      attempt({
        event: 'stdout',
        lastEventId: '5',
        data: data({ sequence: 0, kind: 'stdout', content: 1, isFinal: false }),
      }),
    ).toBe('Invalid frame: `id` must equal data.sequence (0), got "5" (string)');
    expect(attempt({ event: 'gap', lastEventId: '', data: data({ from: 'x', to: 1 }) })).toMatch(
      /`gap.from`/,
    );
  });
});
