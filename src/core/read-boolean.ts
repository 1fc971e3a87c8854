import { readOption } from './read-option.js';

/** Reads a boolean option ({@link readOption}), `fallback` when absent. */
export function readBoolean<F extends boolean | undefined>(
  options: unknown,
  name: string,
  fallback: F,
): boolean | F {
  return readOption(options, name, (value) => typeof value === 'boolean', 'a boolean', fallback);
}
