import { optionError } from './option-error.js';

/**
 * Reads one option from an options bag and checks it with `accepts` before anything starts,
 * throwing a `TypeError` in execa's template: "Expected the `bufferSize` option to be a positive
 * integer, got `0` (number)". An absent (`undefined`) option gets `fallback`; the bag itself must
 * be an object or `undefined`. `prefix` names a nested bag in messages (`'replay.'` →
 * `replay.maxEvents`). Internal: not exported from the package.
 *
 * @example
 * ```ts
 * import { readOption } from '../core/read-option.js';
 * const encoding = readOption(options, 'encoding', (value) => value === 'utf8' || value === 'buffer', "`'utf8'` or `'buffer'`", 'utf8');
 * ```
 */
export function readOption<T, F = T>(
  options: unknown,
  name: string,
  accepts: ((value: unknown) => value is T) | ((value: unknown) => boolean),
  expected: string,
  fallback: F,
  prefix = '',
): T | F {
  if (options === undefined) return fallback;
  if (typeof options !== 'object' || options === null) {
    throw optionError(undefined, 'an object', options);
  }
  const value = (options as Record<string, unknown>)[name];
  if (value === undefined) return fallback;
  if (!accepts(value)) throw optionError(`${prefix}${name}`, expected, value);
  return value as T;
}
