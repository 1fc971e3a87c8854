import type { z } from 'zod';
import { optionError } from '../core/option-error.js';

/**
 * Validates a positional argument of an adapter with a zod schema and throws a `TypeError`
 * naming it: "Expected the `source` argument to be an Observable, got `5` (number)".
 * Internal to `src/adapters`.
 *
 * @example
 * ```ts
 * checkArgument(source, 'source', observableSchema(), 'an Observable');
 * ```
 */
export function checkArgument<T>(value: unknown, name: string, schema: z.ZodType<T>, expected: string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw optionError(name, expected, value, 'argument');
  }
  return result.data;
}
