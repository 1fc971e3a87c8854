import { CliUsageError } from './cli-usage-error.js';
import { flagError } from './flag-error.js';

/**
 * The `--redis <url>` every Redis subcommand needs: a `redis://` or `rediss://` URL, else a
 * `CliUsageError` that says how to give it.
 *
 * @example
 * ```ts
 * const url = redisUrlFlag(values.redis, 'sluice follow --redis <url> <run-id>');
 * ```
 */
export function redisUrlFlag(value: string | undefined, usage: string): string {
  if (value === undefined) throw new CliUsageError(`Missing \`--redis <url>\`: \`${usage}\``);
  if (!/^rediss?:\/\//.test(value)) {
    throw flagError('redis', 'a redis:// or rediss:// URL', value);
  }
  return value;
}
