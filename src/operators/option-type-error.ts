/**
 * The `TypeError` an operator throws for a bad option, in execa's template:
 * "Expected the `ms` option to be a non-negative integer, got `-1` (number)". With `option`
 * `undefined` it describes the options argument itself. Internal to `src/operators`.
 *
 * @example
 * ```ts
 * throw optionTypeError('capacity', 'a positive integer', 0);
 * // TypeError: Expected the `capacity` option to be a positive integer, got `0` (number)
 * ```
 */
export function optionTypeError(option: string | undefined, expected: string, value: unknown): TypeError {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  let text: string;
  try {
    text = typeof value === 'function' ? '[function]' : String(value);
  } catch {
    text = '[unprintable]';
  }
  if (text.length > 60) text = `${text.slice(0, 57)}...`;
  const subject = option === undefined ? 'the options' : `the \`${option}\` option`;
  return new TypeError(`Expected ${subject} to be ${expected}, got \`${text}\` (${type})`);
}
