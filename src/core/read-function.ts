import { readOption } from './read-option.js';

/**
 * Reads a function option (a callback, a constructor, `fetch`), `fallback` when absent:
 * "Expected the `onError` option to be a function, got `5` (number)". Internal: not exported
 * from the package.
 *
 * @example
 * ```ts
 * import { readFunction } from '../core/read-function.js';
 * const onError = readFunction(options, 'onError', reportToConsole);
 * ```
 */
export function readFunction<T, F extends T | undefined = T>(
  options: unknown,
  name: string,
  fallback: F,
): T | F {
  return readOption<T, F>(options, name, (value) => typeof value === 'function', 'a function', fallback);
}
