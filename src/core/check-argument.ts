import { optionError } from './option-error.js';

/**
 * Checks a positional argument with `accepts` and throws a `TypeError` naming it, in the template
 * of the options: "Expected the `source` argument to be an Observable, got `5` (number)".
 * Internal: not exported from the package.
 */
export function checkArgument(
  value: unknown,
  name: string,
  accepts: (value: unknown) => boolean,
  expected: string,
): void {
  if (!accepts(value)) throw optionError(name, expected, value, 'argument');
}
