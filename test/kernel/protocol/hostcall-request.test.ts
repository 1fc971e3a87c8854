import { describe, expect, it } from 'vitest';
import { isInvalidRequestError } from '../../../src/core/index.js';
import {
  hostcallKindSchema,
  hostcallRequestSchema,
  parseHostcallRequest,
} from '../../../src/kernel/protocol/hostcall-request.js';

function rejection(input: unknown): string {
  try {
    parseHostcallRequest(input);
  } catch (error) {
    expect(isInvalidRequestError(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected parseHostcallRequest to throw');
}

describe('parseHostcallRequest', () => {
  it('accepts every kind with an open payload', () => {
    for (const kind of hostcallKindSchema.options) {
      const request = {
        callId: 'hc-1',
        kind,
        payload: { cmd: 'ls', nested: { a: [1] }, stream: true, buffer_size: 4 },
      };
      expect(parseHostcallRequest(request)).toEqual(request);
    }
    expect(hostcallKindSchema.options).toEqual(['exec', 'http', 'tool', 'session', 'events', 'ui']);
  });

  it('validates the streaming fields only for exec and http: the other kinds ignore them', () => {
    const payload = { stream: 'x', buffer_size: 0, stall_timeout_ms: -1 };
    for (const kind of ['tool', 'session', 'events', 'ui'] as const) {
      expect(parseHostcallRequest({ callId: 'hc-1', kind, payload })).toEqual({
        callId: 'hc-1',
        kind,
        payload,
      });
    }
    expect(rejection({ callId: 'hc-1', kind: 'exec', payload: { buffer_size: 0 } })).toBe(
      'Invalid hostcall request: `payload.buffer_size` must be an integer ≥ 1, got 0 (number)',
    );
  });

  it.each([
    ['a string', 'exec', 'the request must be an object, got "exec" (string)'],
    ['no callId', { kind: 'exec', payload: {} }, '`callId` must be a non-empty string, got nothing'],
    [
      'an empty callId',
      { callId: '', kind: 'exec', payload: {} },
      '`callId` must be a non-empty string, got "" (string)',
    ],
    [
      'an unknown kind',
      { callId: 'a', kind: 'Exec', payload: {} },
      "`kind` must be one of 'exec', 'http', 'tool', 'session', 'events', 'ui', got \"Exec\" (string)",
    ],
    ['no payload', { callId: 'a', kind: 'exec' }, '`payload` must be an object, got nothing'],
    [
      'an array payload',
      { callId: 'a', kind: 'exec', payload: [] },
      '`payload` must be an object, got [] (array)',
    ],
    [
      'a bad stream flag',
      { callId: 'a', kind: 'http', payload: { stream: 'yes' } },
      '`payload.stream` must be a boolean, got "yes" (string)',
    ],
    [
      'a non-JSON payload field',
      { callId: 'a', kind: 'exec', payload: { env: { HOME: undefined } } },
      '`payload.env.HOME` must be a JSON value, got nothing',
    ],
    [
      'the serde call id key',
      { call_id: 'a', callId: 'a', kind: 'exec', payload: {} },
      '`call_id` is not a known field, got "a" (string)',
    ],
  ])('rejects %s naming the field', (_name, input, message) => {
    expect(rejection(input)).toBe(`Invalid hostcall request: ${message}`);
    expect(hostcallRequestSchema.safeParse(input).success).toBe(false);
  });
});
