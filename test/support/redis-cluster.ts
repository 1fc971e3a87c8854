import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, redisCommand, redisServerPath, startRedis } from './redis-server.js';
import { requireTool, which } from './system-tools.js';

const run = promisify(execFile);

/** `redis-cli` (it creates the cluster), or `undefined` (with a notice) where it is not installed. */
export const redisCliPath = requireTool('redis-cli', which('redis-cli'), 'apt-get install redis-tools');

/** One node of a {@link RedisCluster}. */
export interface ClusterNodeProcess {
  readonly port: number;
  readonly process: ChildProcess;
}

/** A local Redis Cluster this test started: three masters, each with one replica. */
export interface RedisCluster {
  /** `127.0.0.1:<port>` of every node: the startup nodes. */
  readonly addresses: readonly string[];
  readonly nodes: readonly ClusterNodeProcess[];
  /** The hash slot of `key` (`CLUSTER KEYSLOT`, asked of a live node). */
  slotOf(key: string): Promise<number>;
  /** The port of the master that serves `slot` now. */
  masterOf(slot: number): Promise<number>;
  /** `kill -9` of the node on `port`. */
  crash(port: number): Promise<void>;
  /** Waits until every live node says `cluster_state:ok` and `slot`'s master is not `port`. */
  waitForFailover(slot: number, port: number, deadlineMs?: number): Promise<number>;
  /** Kills every node it started and removes its directory. */
  stop(): Promise<void>;
}

/**
 * Starts six `redis-server --cluster-enabled yes` on free ports (a temporary directory, no
 * persistence, node timeout 1500 ms), creates a cluster of three masters with one replica each
 * (`redis-cli --cluster create … --cluster-replicas 1`), and resolves once every node says
 * `cluster_state:ok` and every replica has synced with its master (so that it can take over).
 */
export async function startRedisCluster(): Promise<RedisCluster> {
  if (redisServerPath === undefined || redisCliPath === undefined)
    throw new Error('redis-server is not installed');
  const cli = redisCliPath;
  const dir = mkdtempSync(join(tmpdir(), 'sluice-cluster-'));
  const nodes: ClusterNodeProcess[] = [];
  const stop = async () => {
    for (const node of nodes) {
      if (node.process.exitCode === null && node.process.signalCode === null) {
        const exited = new Promise((resolve) => node.process.once('exit', resolve));
        node.process.kill('SIGKILL');
        await exited;
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    while (nodes.length < 6) nodes.push(await startNode(dir, nodes));
    const ports = nodes.map((node) => node.port);
    await run(
      cli,
      [
        '--cluster',
        'create',
        ...ports.map((port) => `127.0.0.1:${port}`),
        '--cluster-replicas',
        '1',
        '--cluster-yes',
      ],
      {
        timeout: 30_000,
      },
    );
    await waitFor(
      async () => (await Promise.all(ports.map((port) => clusterOk(cli, port)))).every(Boolean),
      30_000,
    );
    // A replica can take over only once it has synced: wait for every link to be up.
    await waitFor(
      async () => (await Promise.all(ports.map((port) => replicationUp(cli, port)))).every(Boolean),
      30_000,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  const masterOf = async (slot: number): Promise<number> => {
    for (const node of nodes) {
      if (node.process.exitCode !== null || node.process.signalCode !== null) continue;
      const { stdout } = await run(cli, ['-p', String(node.port), 'cluster', 'nodes']).catch(() => ({
        stdout: '',
      }));
      const master = masterFromNodes(stdout, slot);
      if (master !== undefined) return master;
    }
    throw new Error(`no master serves slot ${slot}`);
  };
  return {
    addresses: nodes.map((node) => `127.0.0.1:${node.port}`),
    nodes,
    masterOf,
    slotOf: async (key) => {
      const live = nodes.find((node) => node.process.exitCode === null && node.process.signalCode === null);
      const reply = await redisCommand(live?.port ?? 0, `CLUSTER KEYSLOT ${key}`);
      if (!/^:\d+$/.test(reply)) throw new Error(`CLUSTER KEYSLOT ${key}: ${reply}`);
      return Number(reply.slice(1));
    },
    crash: async (port) => {
      const node = nodes.find((each) => each.port === port);
      if (node === undefined || node.process.exitCode !== null) return;
      const exited = new Promise((resolve) => node.process.once('exit', resolve));
      node.process.kill('SIGKILL');
      await exited;
    },
    waitForFailover: async (slot, port, deadlineMs = 30_000) => {
      let master = port;
      await waitFor(async () => {
        master = await masterOf(slot).catch(() => port);
        if (master === port) return false;
        const live = nodes.filter(
          (node) => node.process.exitCode === null && node.process.signalCode === null,
        );
        return (await Promise.all(live.map((node) => clusterOk(cli, node.port)))).every(Boolean);
      }, deadlineMs);
      return master;
    },
    stop,
  };
}

/**
 * Starts one node on a free port ({@link startRedis}, 30 s to answer `PING`). A port found free can
 * be taken before the node binds it (by a parallel test, or its cluster bus port + 10000): a node
 * that exits before answering is started again on another port, up to five times.
 */
async function startNode(dir: string, others: readonly ClusterNodeProcess[]): Promise<ClusterNodeProcess> {
  let lastError = '';
  for (let attempt = 0; attempt < 5; ) {
    const port = await freePort();
    // The cluster bus listens on port + 10000: both must be free.
    if (port >= 55_000 || others.some((node) => node.port === port)) continue;
    attempt += 1;
    const args = ['--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${port}.conf`)];
    args.push('--cluster-node-timeout', '1500');
    try {
      const node = await startRedis({ port, dir, args, readyMs: 30_000 });
      return { port, process: node.process };
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
  }
  throw new Error(`no cluster node started after five ports: ${lastError}`);
}

async function replicationUp(cli: string, port: number): Promise<boolean> {
  const { stdout } = await run(cli, ['-p', String(port), 'info', 'replication']).catch(() => ({
    stdout: '',
  }));
  if (stdout.includes('role:master')) return /connected_slaves:1/.test(stdout) && /state=online/.test(stdout);
  return stdout.includes('master_link_status:up');
}

async function clusterOk(cli: string, port: number): Promise<boolean> {
  const { stdout } = await run(cli, ['-p', String(port), 'cluster', 'info']).catch(() => ({ stdout: '' }));
  return stdout.includes('cluster_state:ok');
}

/** The port of `slot`'s live master in `CLUSTER NODES` output (`id ip:port@bus flags master … slots`). */
function masterFromNodes(text: string, slot: number): number | undefined {
  for (const line of text.split('\n')) {
    const [, address, flags, , , , , , ...slots] = line.trim().split(' ');
    if (address === undefined || flags === undefined) continue;
    if (!flags.split(',').includes('master') || /fail/.test(flags)) continue;
    const serves = slots.some((range) => {
      const [from, to = from] = range.split('-').map(Number);
      return from !== undefined && to !== undefined && slot >= from && slot <= to;
    });
    if (serves) return Number(/:(\d+)@/.exec(address)?.[1]);
  }
  return undefined;
}

async function waitFor(condition: () => Promise<boolean>, deadlineMs: number): Promise<void> {
  const end = performance.now() + deadlineMs;
  while (performance.now() < end) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out after ${deadlineMs} ms`);
}
