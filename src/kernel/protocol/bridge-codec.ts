import { z } from 'zod';
import { InvalidFrameError } from '../../core/errors/invalid-frame-error.js';
import { defineCodec, type OutcomeCodec } from './define-codec.js';
import { failure, type HostcallOutcome, outcomeFields, streamChunk, success } from './hostcall-outcome.js';
import { type JsonValue, jsonValueSchema } from './json-value.js';
import { frameError, parsePart } from './parse-part.js';

const successShape = z.strictObject({ ok: z.literal(true), value: jsonValueSchema });
const failureShape = z.strictObject({
  ok: z.literal(false),
  code: outcomeFields.code,
  message: outcomeFields.message,
});
const chunkShape = z.strictObject({
  ok: z.literal(true, { error: 'must be true when present' }).optional(),
  stream: z.literal(true, { error: 'must be true when present' }),
  sequence: outcomeFields.sequence,
  isFinal: outcomeFields.isFinal,
  chunk: jsonValueSchema,
});

function write(outcome: HostcallOutcome): JsonValue {
  switch (outcome.type) {
    case 'success':
      return { ok: true, value: outcome.value };
    case 'error':
      return { ok: false, code: outcome.code, message: outcome.message };
    case 'streamChunk':
      return {
        ok: true,
        stream: true,
        sequence: outcome.sequence,
        isFinal: outcome.isFinal,
        chunk: outcome.chunk,
      };
  }
}

function read(input: unknown, field: string): HostcallOutcome {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw frameError(field, input, 'must be an object');
  }
  // A stream chunk is told by its `stream` key first, as the bridge's consumer does: the document's
  // own shape `{ stream, sequence, chunk, isFinal }` has no `ok` (sluice writes `ok: true` too).
  if (Object.hasOwn(input, 'stream')) {
    const { sequence, chunk, isFinal } = parsePart(chunkShape, input, field, InvalidFrameError);
    return streamChunk(sequence, chunk, isFinal);
  }
  const ok: unknown = (input as { ok?: unknown }).ok;
  if (typeof ok !== 'boolean') throw frameError(`${field}.ok`, ok, 'must be a boolean');
  if (!ok) {
    const { code, message } = parsePart(failureShape, input, field, InvalidFrameError);
    return failure(code, message);
  }
  return success(parsePart(successShape, input, field, InvalidFrameError).value);
}

/**
 * The codec of the shape a JS bridge consumes (docs/protocol.md, "Outcomes"):
 *
 * - success: `{ ok: true, value }`
 * - error: `{ ok: false, code, message }`
 * - stream chunk: `{ ok: true, stream: true, sequence, isFinal, chunk }` — decoded without `ok`
 *   too (`{ stream: true, sequence, chunk, isFinal }`, the streaming-hostcall shape the bridge's
 *   consumer reads, which looks at `stream` first); encoded with it
 *
 * In NDJSON frames its call id key is `callId`.
 */
export const bridgeCodec: OutcomeCodec = defineCodec({
  name: 'bridge',
  callIdKey: 'callId',
  sequencePath: ['sequence'],
  write,
  read,
});
