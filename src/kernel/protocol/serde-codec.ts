import { z } from 'zod';
import { InvalidFrameError } from '../../core/errors/invalid-frame-error.js';
import { defineCodec, type OutcomeCodec } from './define-codec.js';
import { failure, type HostcallOutcome, outcomeFields, streamChunk, success } from './hostcall-outcome.js';
import { type JsonValue, jsonValueSchema } from './json-value.js';
import { frameError, parsePart } from './parse-part.js';

const VARIANTS = '`Success`, `Error` or `StreamChunk`';
const errorShape = z.strictObject(
  { code: outcomeFields.code, message: outcomeFields.message },
  { error: 'must be an object with `code` and `message`' },
);
const chunkShape = z.strictObject(
  { sequence: outcomeFields.sequence, chunk: jsonValueSchema, is_final: outcomeFields.isFinal },
  { error: 'must be an object with `sequence`, `chunk` and `is_final`' },
);

function write(outcome: HostcallOutcome): JsonValue {
  switch (outcome.type) {
    case 'success':
      return { Success: outcome.value };
    case 'error':
      return { Error: { code: outcome.code, message: outcome.message } };
    case 'streamChunk':
      return { StreamChunk: { sequence: outcome.sequence, chunk: outcome.chunk, is_final: outcome.isFinal } };
  }
}

function read(input: unknown, field: string): HostcallOutcome {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw frameError(field, input, `must be an object with one key: ${VARIANTS}`);
  }
  const keys = Object.keys(input);
  const [variant] = keys;
  if (variant === undefined || keys.length > 1) {
    throw frameError(field, input, `must have exactly one key: ${VARIANTS}`);
  }
  const body: unknown = (input as Record<string, unknown>)[variant];
  const at = `${field}.${variant}`;
  switch (variant) {
    case 'Success':
      return success(parsePart(jsonValueSchema, body, at, InvalidFrameError));
    case 'Error': {
      const { code, message } = parsePart(errorShape, body, at, InvalidFrameError);
      return failure(code, message);
    }
    case 'StreamChunk': {
      const { sequence, chunk, is_final } = parsePart(chunkShape, body, at, InvalidFrameError);
      return streamChunk(sequence, chunk, is_final);
    }
    default:
      throw frameError(at, body, `is not a known variant (expected ${VARIANTS})`);
  }
}

/**
 * The codec of the shape a Rust host writes with serde's default externally-tagged enums:
 *
 * - success: `{ "Success": value }`
 * - error: `{ "Error": { "code": …, "message": … } }`
 * - stream chunk: `{ "StreamChunk": { "sequence": 0, "chunk": …, "is_final": false } }`
 *
 * In NDJSON frames its call id key is `call_id` (the field of `HostcallComplete { call_id, outcome }`).
 */
export const serdeCodec: OutcomeCodec = defineCodec({
  name: 'serde',
  callIdKey: 'call_id',
  sequencePath: ['StreamChunk', 'sequence'],
  write,
  read,
});
