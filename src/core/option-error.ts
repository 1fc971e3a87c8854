import { describeValue } from './describe-value.js';

/**
 * The `TypeError` every sluice option check throws, in execa's template:
 * "Expected the `timeoutMs` option to be a non-negative integer, got `-1` (number)". With no
 * option name it speaks of the options object itself. `what` says what the name names: an
 * `'option'` (the default), an `'argument'` (positional), a `'flag'` (the `sluice` CLI), a
 * `'field'` of a value given, a `'header'`, or any such noun phrase (`` 'field of tool `Exec`' ``).
 * The value is shown by {@link describeValue}: every option and argument message of sluice goes
 * through here. Internal: not exported from the package.
 *
 * @example
 * ```ts
 * throw optionError('bufferSize', 'a positive integer', 0);
 * // TypeError: Expected the `bufferSize` option to be a positive integer, got `0` (number)
 * ```
 */
export function optionError(
  option: string | undefined,
  expected: string,
  value: unknown,
  what = 'option',
): TypeError {
  const subject = option === undefined ? 'the options' : `the \`${option}\` ${what}`;
  return new TypeError(`Expected ${subject} to be ${expected}, got ${describeValue(value)}`);
}
