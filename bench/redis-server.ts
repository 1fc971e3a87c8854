import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { type RedisCluster, startRedisCluster } from '../test/support/redis-cluster.js';

/**
 * Starts a throw-away `redis-server` for a benchmark (free loopback port, temporary directory, no
 * persistence) and resolves once it answers `PING`; `stop()` ends it and removes its directory.
 *
 * @example
 * ```ts
 * const redis = await startBenchRedis();
 * try { … redis.url … } finally { await redis.stop(); }
 * ```
 */
export async function startBenchRedis(): Promise<{
  url: string;
  connection: { url: string };
  address: string;
  stop(): Promise<void>;
}> {
  const port = await new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
  const dir = mkdtempSync(join(tmpdir(), 'sluice-bench-redis-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  let spawnError: unknown;
  child.on('error', (error) => {
    spawnError = error;
  });
  const url = `redis://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt += 1) {
    if (spawnError !== undefined) {
      rmSync(dir, { recursive: true, force: true });
      throw spawnError;
    }
    const probe = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    probe.on('error', () => {});
    const answered = await probe
      .connect()
      .then(() => probe.ping())
      .then(
        () => true,
        () => false,
      );
    probe.disconnect();
    if (answered) break;
    if (attempt > 250) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`redis-server did not answer on port ${port}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    url,
    connection: { url },
    address: url,
    stop: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A local Redis Cluster for the bench: three masters with a replica each on free ports (the test
 * suite's setup, `test/support/redis-cluster.ts`), as the store's `connection` and the follower's
 * `address` (the startup nodes).
 */
export async function startBenchCluster(): Promise<{
  connection: { cluster: string[] };
  address: string;
  cluster: RedisCluster;
  stop(): Promise<void>;
}> {
  const cluster = await startRedisCluster();
  return {
    connection: { cluster: [...cluster.addresses] },
    address: cluster.addresses.join(','),
    cluster,
    stop: () => cluster.stop(),
  };
}
