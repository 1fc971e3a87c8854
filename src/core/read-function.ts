import { readOption } from './read-option.js';

/** Reads a function option ({@link readOption}), `fallback` when absent. */
export function readFunction<T, F extends T | undefined = T>(
  options: unknown,
  name: string,
  fallback: F,
): T | F {
  return readOption<T, F>(options, name, (value) => typeof value === 'function', 'a function', fallback);
}
