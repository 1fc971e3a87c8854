import { CliUsageError, flagError, readIntegerFlag } from './cli-usage-error.js';

/**
 * The flags of every subcommand that writes runs to Redis (`exec --redis`, `submit`, `worker`),
 * for `parseArgs`: where the store is (`--redis`, `--redis-cluster`), how long a command may wait
 * for it before publishing fails (`--redis-timeout-ms`: the store's `failAfterMs`), and how much of
 * each run it keeps (`--max-events`, `--max-bytes`, `--retain-ms`; defaults in docs/scaling.md).
 */
export const REDIS_STORE_FLAGS = {
  redis: { type: 'string' },
  'redis-cluster': { type: 'string' },
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
  values: Readonly<Record<string, string | boolean | string[] | undefined>>,
  usage: string,
): ReturnType<typeof readRedisConnection> & {
  maxEvents?: number;
  maxBytes?: number;
  retainMs?: number;
  failAfterMs?: number;
} {
  const connection = readRedisConnection(
    values.redis as string | undefined,
    usage,
    values['redis-cluster'] as string | undefined,
  );
  const max = Number.MAX_SAFE_INTEGER;
  const read = (flag: string) => {
    const value = values[flag] as string | undefined;
    return value === undefined ? undefined : readIntegerFlag(flag, value, 0, 1, max);
  };
  const maxEvents = read('max-events');
  const maxBytes = read('max-bytes');
  const retainMs = read('retain-ms');
  const failAfterMs = read('redis-timeout-ms');
  return {
    ...(failAfterMs === undefined ? {} : { failAfterMs }),
    ...connection,
    ...(maxEvents === undefined ? {} : { maxEvents }),
    ...(maxBytes === undefined ? {} : { maxBytes }),
    ...(retainMs === undefined ? {} : { retainMs }),
  };
}

/** Where a Redis subcommand finds its store: one server (`--redis <url>`) or a Cluster's nodes. */
export type RedisConnectionFlag = { readonly url: string } | { readonly cluster: readonly string[] };

/**
 * The `--redis <url>` or `--redis-cluster host:port[,host:port…]` every Redis subcommand needs
 * (exactly one of them): a `redis://` or `rediss://` URL, or the comma-separated startup nodes of a
 * Redis Cluster; else a `CliUsageError` that says how to give it.
 */
export function readRedisConnection(
  value: string | undefined,
  usage: string,
  cluster?: string | undefined,
): RedisConnectionFlag {
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
  if (!/^rediss?:\/\//.test(value)) {
    throw flagError('redis', 'a redis:// or rediss:// URL', value);
  }
  return { url: value };
}
