import { z } from 'zod';

/**
 * The zod schemas of the fields every outcome shape shares, with the messages the protocol
 * reports (they follow the field name: "`outcome.sequence` must be a non-negative safe integer").
 * A sequence above `Number.MAX_SAFE_INTEGER` is rejected, never rounded: `JSON.parse` turns the
 * text `9007199254740993` into `2 ** 53`, which is not a safe integer either.
 *
 * (Internal to the protocol folder: the codecs and the outcome schema share it.)
 */
export const outcomeFields = {
  sequence: z.custom<number>(
    (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0,
    { error: 'must be a non-negative safe integer' },
  ),
  isFinal: z.boolean({ error: 'must be a boolean' }),
  code: z.string({ error: 'must be a non-empty string' }).min(1, { error: 'must be a non-empty string' }),
  message: z.string({ error: 'must be a string' }),
};
