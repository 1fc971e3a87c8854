import { CliUsageError } from './cli-usage-error.js';
import { flagError } from './flag-error.js';

/** Where a Redis subcommand finds its store: one server (`--redis <url>`) or a Cluster's nodes. */
export type RedisConnectionFlag = { readonly url: string } | { readonly cluster: readonly string[] };

/**
 * The `--redis <url>` or `--redis-cluster host:port[,host:port…]` every Redis subcommand needs
 * (exactly one of them): a `redis://` or `rediss://` URL, or the comma-separated startup nodes of a
 * Redis Cluster; else a `CliUsageError` that says how to give it.
 *
 * @example
 * ```ts
 * const connection = redisUrlFlag(values.redis, 'sluice follow --redis <url> <run-id>', values['redis-cluster']);
 * const store = new RedisRunStore({ ...connection });
 * ```
 */
export function redisUrlFlag(
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
