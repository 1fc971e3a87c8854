import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
import { flagError } from './flag-error.js';

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
  max = MAX_DELAY_MS,
): number {
  if (value === undefined) return fallback;
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= min && number <= max)) {
    throw flagError(flag, `a whole number from ${min} to ${max}`, value);
  }
  return number;
}
