import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
import { optionError } from '../core/option-error.js';
import { readInteger } from '../core/read-integer.js';

/**
 * A command line that cannot be run; the CLI prints the message and exits with code 2.
 */
export class CliUsageError extends Error {
  override get name(): string {
    return 'CliUsageError';
  }
}

/**
 * The usage error of a bad flag value, in the one template of sluice's options: "Expected the
 * `--timeout-ms` flag to be a whole number from 0 to 2147483647, got `soon` (string)". The CLI
 * prints it and exits with code 2.
 */
export function flagError(flag: string, expected: string, value: unknown): CliUsageError {
  return new CliUsageError(optionError(`--${flag}`, expected, value, 'flag').message);
}

/**
 * Reads a whole-number flag of a subcommand (`--concurrency 4`): `fallback` when absent. The digits
 * become a number that core's {@link readInteger} checks against `min` and `max`, the one bounds
 * check of sluice's options; a value out of them, or not all digits, is a `CliUsageError` in the
 * CLI's template that quotes the flag as typed.
 */
export function readIntegerFlag(
  flag: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max = MAX_DELAY_MS,
): number {
  if (value === undefined) return fallback;
  const expected = `a whole number from ${min} to ${max}`;
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  try {
    return readInteger({ [flag]: number }, flag, fallback, { min, max, expected });
  } catch {
    throw flagError(flag, expected, value);
  }
}
