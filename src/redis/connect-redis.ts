import { requirePeer } from '../core/load-peer.js';
import { optionError } from '../core/option-error.js';
import type { RedisClient } from './redis-run-context.js';

/** Where {@link connectRedis} connects: a URL, a Cluster's startup nodes, or a client given by the user. */
export interface RedisConnectionOptions {
  readonly url?: string | undefined;
  readonly cluster?: readonly (string | { readonly host: string; readonly port: number })[] | undefined;
  readonly client?: RedisClient | undefined;
}

/**
 * Opens the run store's command connection (exactly one of `url`, `cluster`, `client`) with the
 * store's failure bound: a command Redis has not answered within `failAfterMs` is rejected then
 * (ioredis's `commandTimeout`), not after 20 reconnects (docs/scaling.md, "What fails when").
 * Returns the client and whether the store owns it (and so closes it). Internal.
 */
export function connectRedis(
  options: RedisConnectionOptions,
  failAfterMs: number,
  failFast: boolean,
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
  const redisOptions = {
    connectionName: 'sluice',
    commandTimeout: failAfterMs,
    connectTimeout: failAfterMs,
    // A closed socket that does not say so (a refused connect) is destroyed after this, instead of
    // holding the process for ioredis's default 2 s.
    disconnectTimeout: 200,
    maxRetriesPerRequest: null,
  };
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
  watchConnection(client, addressOf(options), failFast);
  return { client, owned: true };
}

/** Why each watched client gave up, and the address it was for. */
const given = new WeakMap<RedisClient, { address: string; cause?: string }>();

/**
 * Watches a connection the store opened: until it has reached Redis once, an error that says Redis
 * cannot be reached there is kept for {@link redisFailure}, and with `failFast` ends the
 * connection at once. Once it has been ready, a lost connection is retried as before. Internal.
 */
export function watchConnection(client: RedisClient, address: string, failFast: boolean): void {
  const state: { address: string; cause?: string } = { address };
  given.set(client, state);
  let reached = false;
  client.once('ready', () => {
    reached = true;
    state.cause = undefined;
  });
  client.on('error', (error: NodeJS.ErrnoException & { lastNodeError?: NodeJS.ErrnoException }) => {
    if (reached || (failFast && state.cause !== undefined)) return;
    // A Cluster that reached none of its startup nodes says why in the last node's error.
    const cause = unreachableCause(error.lastNodeError ?? error);
    if (cause === undefined) return;
    state.cause = cause;
    if (failFast) client.disconnect();
  });
}

/** The address a watched client connects to, for a duplicate of it: `host:port` or the Cluster's nodes. */
export function addressOfClient(client: RedisClient): string {
  return given.get(client)?.address ?? 'Redis';
}

/**
 * What went wrong with a command of `client`, for a message: why the client gave up when it never
 * reached Redis (the command itself only says "Connection is closed."), else the command's own
 * error message. Internal.
 */
export function redisFailure(client: RedisClient, error: unknown): string {
  const state = given.get(client);
  if (state?.cause !== undefined) return `cannot reach Redis at ${state.address}: ${state.cause}`;
  return error instanceof Error ? error.message : String(error);
}

/** The cause of a connection error that means Redis is not reachable at that address; else `undefined`. */
function unreachableCause(error: NodeJS.ErrnoException): string | undefined {
  const { code = '', message } = error;
  if (code === 'ECONNREFUSED') return 'connection refused (ECONNREFUSED)';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `no route to host (${code})`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `unknown host (${code})`;
  if (code === 'ETIMEDOUT') return 'the connection timed out (ETIMEDOUT)';
  if (/^(WRONGPASS|NOAUTH|NOPERM)|invalid password/i.test(message)) {
    return `authentication failed (${message})`;
  }
  return undefined;
}

/** Where the options connect, for messages: `host:port` of the URL, or the Cluster's startup nodes. */
function addressOf(options: RedisConnectionOptions): string {
  if (options.cluster !== undefined) {
    return options.cluster
      .map((node) => (typeof node === 'string' ? node : `${node.host}:${node.port}`))
      .join(',');
  }
  try {
    const url = new URL(options.url ?? '');
    return `${url.hostname}:${url.port === '' ? 6379 : url.port}`;
  } catch {
    return String(options.url);
  }
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
