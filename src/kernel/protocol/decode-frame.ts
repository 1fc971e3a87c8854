import { z } from 'zod';
import { InvalidFrameError } from '../../core/errors/invalid-frame-error.js';
import { frameError } from './frame-error.js';
import type { HostcallFrame } from './hostcall-frame.js';
import { jsonNestsDeeper } from './json-depth.js';
import type { OutcomeCodec } from './outcome-codec.js';
import { parseFramePart } from './parse-frame-part.js';
import { rawNumberToken } from './raw-number-token.js';

/** serde_json's own recursion limit: what a Rust peer of the protocol can read. */
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
 * Decodes one NDJSON line (without its newline; a trailing `\r` is ignored) into a
 * {@link HostcallFrame}, or throws an `InvalidFrameError` (code `INVALID_FRAME`) naming the
 * field: not JSON, not an object, a missing or empty call id (`callId` or `call_id`, per the
 * codec), an unknown key, or a bad outcome (`outcome.StreamChunk.sequence` …). A sequence must
 * also be *written* as a plain integer: `1.0`, `1e0` or `5.0000000000000001` (which `JSON.parse`
 * would silently turn into an integer) are rejected, as serde rejects them for a `u64`. A line that
 * nests arrays and objects deeper than `maxDepth` (default 128, serde_json's limit; the envelope
 * counts) is refused before it is parsed, in time linear in its length, so a hostile line of
 * millions of `[` costs milliseconds, not gigabytes.
 *
 * @example
 * ```ts
 * import { bridgeCodec, decodeFrame } from 'sluice/kernel';
 * decodeFrame('{"callId":"hc-1","outcome":{"ok":false,"code":"EXEC_FAILED","message":"exit code 1"}}', bridgeCodec);
 * // { callId: 'hc-1', outcome: { type: 'error', code: 'EXEC_FAILED', message: 'exit code 1' } }
 * ```
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
  const fields = parseFramePart(envelope(codec.callIdKey), parsed, '');
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
