import { optionError } from './option-error.js';
import { readOption } from './read-option.js';

/** The bounds of {@link readInteger}, and the prefix of a nested bag (`'replay.'`). */
interface IntegerBounds {
  /** Default `0`. */
  readonly min?: number;
  /** Default `Number.MAX_SAFE_INTEGER`; a delay is capped at `MAX_DELAY_MS`. */
  readonly max?: number;
  readonly prefix?: string;
}

/**
 * Reads an integer option in `[min, max]` (by default a non-negative safe integer), `fallback`
 * when absent, with the one message template of sluice: "Expected the `bufferSize` option to be a
 * positive integer, got `0` (number)". The message names the maximum only when the value is above
 * it ("… a non-negative integer up to 2147483647, got `3000000000` (number)"). Internal: not
 * exported from the package.
 *
 * @example
 * ```ts
 * import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
 * import { readInteger } from '../core/read-integer.js';
 * const timeoutMs = readInteger(options, 'timeoutMs', 0, { max: MAX_DELAY_MS });
 * const maxLineBytes = readInteger(options, 'maxLineBytes', 65_536, { min: 1 });
 * ```
 */
export function readInteger<F extends number | undefined>(
  options: unknown,
  name: string,
  fallback: F,
  { min = 0, max = Number.MAX_SAFE_INTEGER, prefix = '' }: IntegerBounds = {},
): number | F {
  const value = readOption<unknown, F>(options, name, () => true, '', fallback, prefix);
  if (value === undefined) return fallback;
  const base =
    min === 0 ? 'a non-negative integer' : min === 1 ? 'a positive integer' : `an integer of at least ${min}`;
  if (!Number.isInteger(value) || (value as number) < min) throw optionError(`${prefix}${name}`, base, value);
  if ((value as number) > max) throw optionError(`${prefix}${name}`, `${base} up to ${max}`, value);
  return value as number;
}
