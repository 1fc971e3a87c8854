import { z } from 'zod';
import type { HostcallOutcome } from './hostcall-outcome.js';
import { jsonValueSchema } from './json-value.js';
import { outcomeFields } from './outcome-fields.js';

/**
 * The zod schema of a {@link HostcallOutcome} in its in-memory form (discriminated on `type`).
 * The codecs check an outcome with it before encoding, so nothing invalid reaches the wire.
 */
export const hostcallOutcomeSchema: z.ZodType<HostcallOutcome> = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('success'), value: jsonValueSchema }),
    z.strictObject({ type: z.literal('error'), code: outcomeFields.code, message: outcomeFields.message }),
    z.strictObject({
      type: z.literal('streamChunk'),
      sequence: outcomeFields.sequence,
      chunk: jsonValueSchema,
      isFinal: outcomeFields.isFinal,
    }),
  ],
  { error: "must be an outcome whose `type` is 'success', 'error' or 'streamChunk'" },
);
