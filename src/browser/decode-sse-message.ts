import { z } from 'zod';
import type { ChunkEvent } from '../core/chunk.js';
import { InvalidFrameError } from '../core/errors/invalid-frame-error.js';
import { SequenceError } from '../core/errors/sequence-error.js';
import { SluiceError } from '../core/errors/sluice-error.js';
import type { SseMessage } from './sse-parser.js';

/**
 * What one SSE message from `toServerSentEvents` means: a chunk event, or an error the stream
 * must end with (a `gap` or a `failure` control event).
 *
 * @example
 * ```ts
 * import { decodeSseMessage, type DecodedSseMessage } from 'sluice/browser';
 *
 * const decoded: DecodedSseMessage = decodeSseMessage({
 *   event: 'gap',
 *   lastEventId: '2',
 *   data: '{"from":3,"to":9}',
 * });
 * if (decoded.type === 'error') decoded.error.code; // 'STREAM_SEQUENCE'
 * ```
 */
export type DecodedSseMessage =
  | { readonly type: 'event'; readonly event: ChunkEvent<unknown> }
  | { readonly type: 'error'; readonly error: SluiceError };

const sequence = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const eventSchema = z.object({
  sequence,
  kind: z.string(),
  content: z.unknown(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  isFinal: z.boolean(),
});
const gapSchema = z.object({ from: sequence, to: sequence });
const failureSchema = z.object({ code: z.string(), name: z.string().optional(), message: z.string() });

/**
 * Decodes one message of a `toServerSentEvents` stream, validating it with zod:
 *
 * - a chunk event (`data` = the event's JSON, `id` = its sequence) → `{ type: 'event' }`;
 * - `gap` (`{from, to}`) → a {@link SequenceError} (rule `gap`): the server no longer holds
 *   those events — a gap is an error, never a hole;
 * - `failure` (`{code, name, message}`) → a {@link SluiceError} with the server's code.
 *
 * Anything malformed throws an {@link InvalidFrameError} naming the field.
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
    const { from, to } = parse(gapSchema, json, 'gap');
    const info = { rule: 'gap' as const, expected: from, received: to + 1 };
    const text = `Replay gap: the server no longer holds events ${from}..${to} (evicted from its replay log)`;
    return { type: 'error', error: new SequenceError(info, text) };
  }
  if (message.event === 'failure') {
    const { code, name, message: text } = parse(failureSchema, json, 'failure');
    return { type: 'error', error: new SluiceError(code, text, { info: { remote: true, name } }) };
  }
  const event = parse(eventSchema, json, 'data');
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
  const { metadata, ...rest } = event;
  return { type: 'event', event: metadata === undefined ? rest : { ...rest, metadata } };
}

function parse<T>(schema: z.ZodType<T>, json: unknown, where: string): T {
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path ?? [];
  let value: unknown = json;
  for (const key of path) value = (value as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey];
  const field = [where, ...path.map(String)].join('.');
  throw new InvalidFrameError({ field, value }, issue?.message.toLowerCase() ?? 'is invalid');
}
