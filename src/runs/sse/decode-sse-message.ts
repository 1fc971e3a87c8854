import type { ChunkEvent } from '../../core/chunk.js';
import { InvalidFrameError } from '../../core/errors/invalid-frame-error.js';
import { SequenceError } from '../../core/errors/sequence-error.js';
import { SluiceError } from '../../core/errors/sluice-error.js';
import type { SseMessage } from './sse-parser.js';

/** What one SSE message means: a chunk event, or the error (`gap`, `failure`) the stream ends with. */
export type DecodedSseMessage =
  | { readonly type: 'event'; readonly event: ChunkEvent<unknown> }
  | { readonly type: 'error'; readonly error: SluiceError };

/**
 * Decodes one message of a `toServerSentEvents` stream, checking every field by hand (the browser
 * entry loads no validation library): a `gap` is a {@link SequenceError}, never a hole; a
 * `failure` a {@link SluiceError} with the server's code; anything malformed throws an
 * {@link InvalidFrameError} naming the field.
 *
 * @example
 * ```ts
 * import { decodeSseMessage } from 'sluice/browser';
 * decodeSseMessage({ event: 'stdout', lastEventId: '0', data: '{"sequence":0,"kind":"stdout","content":"a","isFinal":false}' });
 * // { type: 'event', event: { sequence: 0, kind: 'stdout', content: 'a', isFinal: false } }
 * ```
 */
export function decodeSseMessage(message: SseMessage): DecodedSseMessage {
  let json: unknown;
  try {
    json = JSON.parse(message.data);
  } catch (cause) {
    throw new InvalidFrameError({ field: 'data', value: message.data }, 'is not JSON', { cause });
  }
  if (message.event === 'gap') {
    const gap = object(json, 'gap');
    const from = field(gap, 'gap', 'from', isSequence, 'must be a non-negative integer');
    const to = field(gap, 'gap', 'to', isSequence, 'must be a non-negative integer');
    const info = { rule: 'gap' as const, expected: from, received: to + 1 };
    const text = `Replay gap: the server no longer holds events ${from}..${to} (evicted from its replay log)`;
    return { type: 'error', error: new SequenceError(info, text) };
  }
  if (message.event === 'failure') {
    const failure = object(json, 'failure');
    const code = field(failure, 'failure', 'code', isString, 'must be a string');
    const name = field(failure, 'failure', 'name', isOptionalString, 'must be a string');
    const text = field(failure, 'failure', 'message', isString, 'must be a string');
    return { type: 'error', error: new SluiceError(code, text, { info: { remote: true, name } }) };
  }
  const data = object(json, 'data');
  const event: ChunkEvent<unknown> = {
    sequence: field(data, 'data', 'sequence', isSequence, 'must be a non-negative integer'),
    kind: field(data, 'data', 'kind', isString, 'must be a string'),
    content: data.content,
    isFinal: field(data, 'data', 'isFinal', (value) => typeof value === 'boolean', 'must be a boolean'),
  };
  const metadata = field(data, 'data', 'metadata', isOptionalRecord, 'must be an object');
  if (message.lastEventId !== String(event.sequence)) {
    throw new InvalidFrameError(
      { field: 'id', value: message.lastEventId },
      `must equal data.sequence (${event.sequence})`,
    );
  }
  if (message.event !== event.kind && message.event !== 'message') {
    throw new InvalidFrameError(
      { field: 'event', value: message.event },
      `must equal data.kind (${event.kind})`,
    );
  }
  return { type: 'event', event: metadata === undefined ? event : { ...event, metadata } };
}

type Json = Readonly<Record<string, unknown>>;

function object(json: unknown, where: string): Json {
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) return json as Json;
  throw new InvalidFrameError({ field: where, value: json }, 'must be an object');
}

function field<T>(
  json: Json,
  where: string,
  key: string,
  accepts: (value: unknown) => value is T,
  problem: string,
): T {
  const value = json[key];
  if (!accepts(value)) throw new InvalidFrameError({ field: `${where}.${key}`, value }, problem);
  return value;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isOptionalString = (value: unknown): value is string | undefined =>
  value === undefined || isString(value);
const isSequence = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isOptionalRecord = (value: unknown): value is Record<string, unknown> | undefined =>
  value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value));
