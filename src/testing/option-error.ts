import { describeValue } from '../core/describe-value.js';

/**
 * The `TypeError` every `sluice/testing` helper throws for a bad argument or option, in execa's
 * template: "Expected the `pipeCapacity` option to be a non-negative integer, got `-1` (number)".
 * Internal to `src/testing`.
 *
 * @example
 * ```ts
 * throw optionError('pipeCapacity', 'a non-negative integer', -1);
 * ```
 */
export function optionError(name: string, expected: string, value: unknown, what = 'option'): TypeError {
  return new TypeError(`Expected the \`${name}\` ${what} to be ${expected}, got ${describeValue(value)}`);
}
