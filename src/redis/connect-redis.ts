import { requirePeer } from '../core/load-peer.js';
import { optionError } from '../core/option-error.js';
import type { RedisClient } from './redis-client.js';

/** Where {@link connectRedis} connects: a URL, a Cluster's startup nodes, or a client given by the user. */
export interface RedisConnectionOptions {
  readonly url?: string | undefined;
  readonly cluster?: readonly (string | { readonly host: string; readonly port: number })[] | undefined;
  readonly client?: RedisClient | undefined;
}

/**
 * Opens the run store's command connection from its options (exactly one of `url`, `cluster`,
 * `client`), with the store's failure bound: a command that Redis has not answered within
 * `failAfterMs` — the server died, or is unreachable — is rejected then (ioredis's
 * `commandTimeout`), instead of after ioredis's 20 reconnect attempts. A Cluster reconnects its
 * nodes and follows `MOVED` and failovers by itself. Returns the client and whether the store owns
 * it (and so closes it). Internal.
 *
 * @example
 * ```ts
 * const { client, owned } = connectRedis({ cluster: ['127.0.0.1:7001'] }, 5000);
 * ```
 */
export function connectRedis(
  options: RedisConnectionOptions,
  failAfterMs: number,
): { client: RedisClient; owned: boolean } {
  const given = (['url', 'cluster', 'client'] as const).filter((name) => options[name] !== undefined);
  if (given.length !== 1) {
    throw optionError(
      given[1] ?? 'url',
      'exactly one of `url`, `cluster` and `client`',
      given.length === 0 ? undefined : options[given[1] as 'url'],
    );
  }
  // Reconnect fast; a command waits for a reconnect at most failAfterMs.
  const redisOptions = { connectionName: 'sluice', commandTimeout: failAfterMs, maxRetriesPerRequest: null };
  if (options.client !== undefined) {
    if (typeof options.client !== 'object' || typeof options.client.duplicate !== 'function') {
      throw optionError('client', 'an ioredis Redis or Cluster client', options.client);
    }
    return { client: options.client, owned: false };
  }
  // ioredis is an optional peer: loaded here, where a store first connects (PEER_MISSING if absent).
  const { Cluster, Redis } = requirePeer<typeof import('ioredis')>('ioredis', 'sluice/redis');
  let client: RedisClient;
  if (options.cluster !== undefined) {
    client = new Cluster(clusterNodes(options.cluster), {
      redisOptions,
      clusterRetryStrategy: (times) => Math.min(times * 100, 1000),
      retryDelayOnFailover: 100,
      retryDelayOnClusterDown: 100,
      retryDelayOnTryAgain: 100,
      slotsRefreshTimeout: Math.min(failAfterMs, 2000),
    });
  } else {
    if (typeof options.url !== 'string' || !/^rediss?:\/\//.test(options.url)) {
      throw optionError('url', 'a redis:// or rediss:// URL', options.url);
    }
    client = new Redis(options.url, {
      ...redisOptions,
      retryStrategy: (times) => Math.min(times * 100, 1000),
    });
  }
  client.on('error', () => {}); // surfaced by the commands that fail
  return { client, owned: true };
}

function clusterNodes(
  nodes: NonNullable<RedisConnectionOptions['cluster']>,
): { host: string; port: number }[] {
  if (!Array.isArray(nodes) || nodes.length === 0) {
    throw optionError(
      'cluster',
      'a non-empty array of startup nodes (`host:port` or `{ host, port }`)',
      nodes,
    );
  }
  return nodes.map((node, index) => {
    if (typeof node === 'string') {
      const match = /^([^\s:]+):(\d{1,5})$/.exec(node);
      if (match !== null) return { host: match[1] as string, port: Number(match[2]) };
    } else if (typeof node === 'object' && node !== null && typeof node.host === 'string') {
      if (Number.isInteger(node.port) && node.port > 0 && node.port < 65_536) return { ...node };
    }
    throw optionError(`cluster[${index}]`, 'a startup node (`host:port` or `{ host, port }`)', node);
  });
}
