import { describeValue } from './describe-value.js';

/**
 * The `TypeError` of every option and argument check, in execa's template: "Expected the
 * `timeoutMs` option to be a non-negative integer, got `-1` (number)". With no name it speaks of
 * the options object; `what` is what the name names (`'argument'`, `'flag'`, `'field'`, …).
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
