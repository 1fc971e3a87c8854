import { CliUsageError, flagError, readIntegerFlag } from './cli-usage-error.js';
import type { GivenFlags } from './parse-subcommand-args.js';

/** Where a Redis subcommand finds its store: `--redis <url>` or `--redis-cluster <host:port,…>`. */
export const REDIS_CONNECTION_FLAGS = {
  redis: { type: 'string' },
  'redis-cluster': { type: 'string' },
} as const;

/**
 * The flags of every subcommand that writes runs to Redis (`exec --redis`, `submit`, `worker`):
 * the connection, how long a command may wait for Redis before publishing fails
 * (`--redis-timeout-ms`: the store's `failAfterMs`), and how much of each run it keeps
 * (`--max-events`, `--max-bytes`, `--retain-ms`; defaults in docs/scaling.md).
 */
export const REDIS_STORE_FLAGS = {
  ...REDIS_CONNECTION_FLAGS,
  'max-events': { type: 'string' },
  'max-bytes': { type: 'string' },
  'retain-ms': { type: 'string' },
  'redis-timeout-ms': { type: 'string' },
} as const;

/**
 * Reads {@link REDIS_STORE_FLAGS} into the options of a `RedisRunStore`: the connection, and the
 * retention flags that were given (the store's defaults for the others).
 */
export function readRedisStoreFlags(
  values: GivenFlags,
  usage: string,
): RedisConnectionFlag & { maxEvents?: number; maxBytes?: number; retainMs?: number; failAfterMs?: number } {
  const read = (flag: string, name: string) => {
    const value = values[flag] as string | undefined;
    return value === undefined ? {} : { [name]: readIntegerFlag(flag, value, 0, 1, Number.MAX_SAFE_INTEGER) };
  };
  return {
    ...read('redis-timeout-ms', 'failAfterMs'),
    ...readRedisConnection(values, usage),
    ...read('max-events', 'maxEvents'),
    ...read('max-bytes', 'maxBytes'),
    ...read('retain-ms', 'retainMs'),
  };
}

/** Where a Redis subcommand finds its store: one server (`--redis <url>`) or a Cluster's nodes. */
export type RedisConnectionFlag = { readonly url: string } | { readonly cluster: readonly string[] };

/**
 * The {@link REDIS_CONNECTION_FLAGS} every Redis subcommand needs (exactly one of them): a
 * `redis://` or `rediss://` URL, or the comma-separated startup nodes of a Redis Cluster; else a
 * `CliUsageError` that says how to give it (`usage`).
 */
export function readRedisConnection(values: GivenFlags, usage: string): RedisConnectionFlag {
  const value = values.redis as string | undefined;
  const cluster = values['redis-cluster'] as string | undefined;
  if (value !== undefined && cluster !== undefined) {
    throw new CliUsageError('Give `--redis <url>` or `--redis-cluster <host:port,…>`, not both');
  }
  if (cluster !== undefined) {
    const nodes = cluster.split(',').map((node) => node.trim());
    const bad = nodes.find((node) => !/^[^\s:,]+:\d{1,5}$/.test(node));
    if (bad !== undefined)
      throw flagError('redis-cluster', 'host:port[,host:port…] (the startup nodes)', cluster);
    return { cluster: nodes };
  }
  if (value === undefined) {
    throw new CliUsageError(`Missing \`--redis <url>\` (or \`--redis-cluster <host:port,…>\`): \`${usage}\``);
  }
  if (!/^rediss?:\/\//.test(value)) throw flagError('redis', 'a redis:// or rediss:// URL', value);
  return { url: value };
}
