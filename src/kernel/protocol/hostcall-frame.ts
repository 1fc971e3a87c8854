import { z } from 'zod';
import { InvalidFrameError } from '../../core/errors/invalid-frame-error.js';
import type { OutcomeCodec } from './define-codec.js';
import type { HostcallOutcome } from './hostcall-outcome.js';
import { jsonNestsDeeper, rawNumberToken } from './json-scan.js';
import { frameError, parsePart } from './parse-part.js';

/**
 * One NDJSON line of the hostcall protocol: which call, and what happened to it
 * (docs/protocol.md, "Frames").
 */
export interface HostcallFrame {
  readonly callId: string;
  readonly outcome: HostcallOutcome;
}

/**
 * Encodes a frame as one NDJSON line, newline included, with the outcome in `codec`'s shape and
 * the call id under `codec.callIdKey`. JSON escapes every newline inside strings, so the line
 * holds exactly one `\n`, at its end. Throws an `InvalidFrameError` for an empty call id or an
 * invalid outcome (see {@link OutcomeCodec.encode}) — and nothing else, even for a frame whose
 * getters throw.
 *
 * @example
 * ```ts
 * import { encodeFrame, serdeCodec, streamChunk } from 'sluice/kernel';
 * encodeFrame({ callId: 'hc-42', outcome: streamChunk(0, 'a', true) }, serdeCodec);
 * // '{"call_id":"hc-42","outcome":{"StreamChunk":{"sequence":0,"chunk":"a","is_final":true}}}\n'
 * ```
 */
export function encodeFrame(frame: HostcallFrame, codec: OutcomeCodec): string {
  let callId: unknown;
  let given: unknown;
  try {
    ({ callId, outcome: given } = frame);
  } catch (error) {
    throw new InvalidFrameError({ field: '', value: undefined }, 'could not be read', { cause: error });
  }
  if (typeof callId !== 'string' || callId === '') {
    throw new InvalidFrameError({ field: codec.callIdKey, value: callId }, 'must be a non-empty string');
  }
  const outcome = codec.encode(given as HostcallOutcome);
  try {
    return `${JSON.stringify({ [codec.callIdKey]: callId, outcome })}\n`;
  } catch (error) {
    throw new InvalidFrameError({ field: 'outcome', value: undefined }, 'could not be serialised', {
      cause: error,
    });
  }
}

/** serde_json's own recursion limit. */
const DEFAULT_MAX_DEPTH = 128;

const callIdSchema = z
  .string({ error: 'must be a non-empty string' })
  .min(1, { error: 'must be a non-empty string' });
const envelopes = new Map<string, z.ZodType<Record<string, unknown>>>();

function envelope(callIdKey: string): z.ZodType<Record<string, unknown>> {
  let schema = envelopes.get(callIdKey);
  if (schema === undefined) {
    schema = z.strictObject(
      {
        [callIdKey]: callIdSchema,
        outcome: z.custom<unknown>((value) => value !== undefined, { error: 'is required' }),
      },
      { error: 'must be a JSON object' },
    );
    envelopes.set(callIdKey, schema);
  }
  return schema;
}

/**
 * Decodes one NDJSON line (a trailing `\r` ignored) into a {@link HostcallFrame}, or throws an
 * `InvalidFrameError` naming the field. A sequence must be written as a plain integer (`1.0`,
 * `1e0` are refused, as serde refuses them for a `u64`); a line nested deeper than `maxDepth` is
 * refused before it is parsed, in time linear in its length.
 */
export function decodeFrame(
  line: string,
  codec: OutcomeCodec,
  options: { readonly maxDepth?: number } = {},
): HostcallFrame {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (jsonNestsDeeper(text, maxDepth)) {
    const preview = text.length > 64 ? `${text.slice(0, 61)}...` : text;
    throw new InvalidFrameError(
      { field: '', value: preview },
      `nests arrays and objects deeper than \`maxFrameDepth\` (${maxDepth} levels)`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new InvalidFrameError({ field: '', value: text }, `is not valid JSON (${reason})`, {
      cause: error,
    });
  }
  const fields = parsePart(envelope(codec.callIdKey), parsed, '', InvalidFrameError);
  const outcome = codec.decode(fields.outcome, 'outcome');
  if (outcome.type === 'streamChunk') {
    const token = rawNumberToken(text, ['outcome', ...codec.sequencePath]);
    if (token !== undefined && !/^(0|[1-9][0-9]*)$/.test(token)) {
      throw frameError(
        ['outcome', ...codec.sequencePath].join('.'),
        token,
        'must be written as a plain integer',
      );
    }
  }
  return { callId: fields[codec.callIdKey] as string, outcome };
}
