import { optionError } from '../core/option-error.js';
import { CliUsageError } from './cli-usage-error.js';

/**
 * The usage error of a bad flag value, in the one template of sluice's options: "Expected the
 * `--timeout-ms` flag to be a whole number from 0 to 2147483647, got `soon` (string)". The CLI
 * prints it and exits with code 2.
 *
 * @example
 * ```ts
 * if (!['bridge', 'serde'].includes(value)) throw flagError('wire', '`bridge` or `serde`', value);
 * ```
 */
export function flagError(flag: string, expected: string, value: unknown): CliUsageError {
  return new CliUsageError(optionError(`--${flag}`, expected, value, 'flag').message);
}
