import type { z } from 'zod';
import { optionError } from './option-error.js';

/**
 * Reads one option from an options bag and validates it with zod before anything starts, throwing
 * a `TypeError` in execa's template: "Expected the `bufferSize` option to be a positive integer,
 * got `0` (number)". An absent (`undefined`) option gets `fallback`; the bag itself must be an
 * object or `undefined`. `prefix` names a nested bag in messages (`'replay.'` → `replay.maxEvents`).
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { readOption } from '../core/read-option.js'; // internal: not exported from the package
 * const size = readOption({ bufferSize: 8 }, 'bufferSize', z.number().int().positive(), 'a positive integer', 16);
 * // 8
 * ```
 */
export function readOption<T>(
  options: unknown,
  name: string,
  schema: z.ZodType<T>,
  expected: string,
  fallback: T,
  prefix = '',
): T {
  if (options === undefined) return fallback;
  if (typeof options !== 'object' || options === null) {
    throw optionError(undefined, 'an object', options);
  }
  const value = (options as Record<string, unknown>)[name];
  if (value === undefined) return fallback;
  const result = schema.safeParse(value);
  if (!result.success) {
    throw optionError(`${prefix}${name}`, expected, value);
  }
  return result.data;
}
