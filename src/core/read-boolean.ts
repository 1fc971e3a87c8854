import { readOption } from './read-option.js';

/**
 * Reads a boolean option, `fallback` when absent: "Expected the `reject` option to be a boolean,
 * got `yes` (string)". Internal: not exported from the package.
 *
 * @example
 * ```ts
 * import { readBoolean } from '../core/read-boolean.js';
 * const reject = readBoolean(options, 'reject', true);
 * ```
 */
export function readBoolean<F extends boolean | undefined>(
  options: unknown,
  name: string,
  fallback: F,
): boolean | F {
  return readOption(options, name, (value) => typeof value === 'boolean', 'a boolean', fallback);
}
