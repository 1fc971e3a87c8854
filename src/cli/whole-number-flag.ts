import { CliUsageError } from './cli-usage-error.js';

/**
 * Reads a whole-number flag of a subcommand (`--concurrency 4`): `fallback` when absent, a
 * `CliUsageError` in the CLI's template when it is not a whole number from `min` to `max`.
 *
 * @example
 * ```ts
 * wholeNumberFlag('concurrency', values.concurrency, 1, 1); // 1 when absent
 * ```
 */
export function wholeNumberFlag(
  flag: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max = 2_147_483_647,
): number {
  if (value === undefined) return fallback;
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= min && number <= max)) {
    throw new CliUsageError(`\`--${flag}\` expects a whole number from ${min} to ${max}, got \`${value}\``);
  }
  return number;
}
