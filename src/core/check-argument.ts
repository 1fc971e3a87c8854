import { optionError } from './option-error.js';

/** Checks a positional argument with `accepts`, throwing the {@link optionError} template. */
export function checkArgument(
  value: unknown,
  name: string,
  accepts: (value: unknown) => boolean,
  expected: string,
): void {
  if (!accepts(value)) throw optionError(name, expected, value, 'argument');
}
