import { optionError } from './option-error.js';

/**
 * Reads one option and checks it with `accepts` before anything starts, throwing the
 * {@link optionError} template; absent gets `fallback`; the bag must be an object or `undefined`.
 * `prefix` names a nested bag in messages (`'replay.'`).
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
