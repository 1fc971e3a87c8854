import type { z } from 'zod';
import { showValue } from './show-value.js';

/**
 * Reads and validates one option of an adapter with a zod schema, in execa's message template:
 * "Expected the `bufferSize` option to be a non-negative integer, got `-1` (number)". An absent
 * (`undefined`) option gets `fallback`. The options bag itself must be an object or `undefined`.
 *
 * Internal to `src/adapters`: it runs before anything subscribes.
 *
 * @example
 * ```ts
 * const size = readOption(options, 'bufferSize', z.number().int().nonnegative(), 'a non-negative integer', 16);
 * ```
 */
export function readOption<T>(
  options: unknown,
  name: string,
  schema: z.ZodType<T>,
  expected: string,
  fallback: T,
): T {
  if (options === undefined) return fallback;
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`Expected the options to be an object, got ${showValue(options)}`);
  }
  const value = (options as Record<string, unknown>)[name];
  if (value === undefined) return fallback;
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new TypeError(`Expected the \`${name}\` option to be ${expected}, got ${showValue(value)}`);
  }
  return result.data;
}
