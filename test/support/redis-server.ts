import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { RedisRunStore, type RedisRunStoreOptions } from '../../src/redis/redis-run-store.js';
import { requireTool, which } from './system-tools.js';

/** The `redis-server` binary, or `undefined` (with a notice) where it is not installed. */
export const redisServerPath = requireTool(
  'redis-server',
  which('redis-server'),
  'apt-get install redis-server',
);

/** A free TCP port on 127.0.0.1 (the kernel picks it; released before returning). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** Sends one inline command and resolves with the first reply line (`+PONG`, `-ERR …`, …). */
export function redisCommand(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    let reply = '';
    socket.setTimeout(2000, () => socket.destroy(new Error(`no reply to ${command}`)));
    socket.on('error', reject);
    socket.on('data', (data) => {
      reply += data.toString('latin1');
      const end = reply.indexOf('\r\n');
      if (end !== -1) {
        socket.destroy();
        resolve(reply.slice(0, end));
      }
    });
    socket.connect(port, '127.0.0.1', () => socket.write(`${command}\r\n`));
  });
}

/** The arguments every test `redis-server` starts with: loopback, `port`, `dir`, no RDB snapshots, in the foreground. */
function redisServerArgs(port: number, dir: string): string[] {
  return ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--daemonize', 'no'];
}

/** Options of {@link startRedis}. */
export interface RedisServerOptions {
  /** Keep an append-only file (fsync always) so a restart keeps the data. Default `false`. */
  readonly appendonly?: boolean;
  /** Reuse this port (a restart); default a free one. */
  readonly port?: number;
  /** Reuse this data directory (a restart); default a fresh temporary one. */
  readonly dir?: string;
  /** More `redis-server` arguments (a cluster node's). */
  readonly args?: readonly string[];
  /** How long it may take to answer `PING`. Default 10 s. */
  readonly readyMs?: number;
}

/** A `redis-server` this test started: `url`, `port`, `dir`, and `stop()` (which waits for it to exit). */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  readonly process: ChildProcess;
  /** Stops it (SIGTERM, then SIGKILL after 5 s) and waits for the exit; removes its dir unless `keepDir`. */
  stop(keepDir?: boolean): Promise<void>;
  /** `kill -9`: the server dies without saving anything (its dir is removed). */
  crash(): Promise<void>;
}

/**
 * Starts a real `redis-server` on a free loopback port with a temporary directory, no RDB
 * snapshots and (unless `appendonly`) no persistence, and resolves once it answers `PING`.
 */
export async function startRedis(options: RedisServerOptions = {}): Promise<RedisServer> {
  if (redisServerPath === undefined) throw new Error('redis-server is not installed');
  const port = options.port ?? (await freePort());
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'sluice-redis-'));
  const args = redisServerArgs(port, dir);
  args.push('--appendonly', options.appendonly ? 'yes' : 'no');
  if (options.appendonly) args.push('--appendfsync', 'always');
  args.push(...(options.args ?? []));
  const child = spawn(redisServerPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // redis-server logs to stdout: keep the tail, which says why it exited (a port taken, …).
  let log = '';
  const keep = (data: Buffer) => {
    log = (log + data.toString()).slice(-2000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = performance.now() + (options.readyMs ?? 10_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`redis-server on ${port} exited: ${log.trim()}`);
    const pong = await redisCommand(port, 'PING').catch(() => '');
    if (pong === '+PONG') break;
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      await exited;
      throw new Error(`redis-server did not answer PING on ${port}: ${log.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    process: child,
    stop: async (keepDir = false) => {
      await kill('SIGTERM');
      if (!keepDir) rmSync(dir, { recursive: true, force: true });
    },
    crash: async () => {
      await kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The redis-server of one `describe` block, from {@link redisForSuite}. */
export interface SuiteRedis {
  /** The running server: read it in tests and hooks (it exists from the block's `beforeAll` on). */
  readonly server: RedisServer;
  /** `server.url`. */
  readonly url: string;
  /** The `RedisRunStore` asked for with `redisForSuite({ store })`, on the server. */
  readonly store: RedisRunStore;
}

/**
 * Starts one `redis-server` for the tests of the enclosing `describe` (`beforeAll`) and stops it
 * after them (`afterAll`), with a `RedisRunStore` on it when `store` gives its options (closed
 * first). Call it before the block's own hooks: vitest runs `afterAll` hooks last-registered first,
 * so the block's own cleanup (servers, stores it made) runs while Redis is still up. Guard the
 * block with `describe.skipIf(redisServerPath === undefined)`.
 */
export function redisForSuite(
  options: { readonly store?: Omit<RedisRunStoreOptions, 'url'> } = {},
): SuiteRedis {
  let server: RedisServer | undefined;
  let store: RedisRunStore | undefined;
  beforeAll(async () => {
    server = await startRedis();
    if (options.store !== undefined) store = new RedisRunStore({ ...options.store, url: server.url });
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });
  return {
    get server() {
      if (server === undefined) throw new Error('redisForSuite: the server starts in beforeAll');
      return server;
    },
    get url() {
      return this.server.url;
    },
    get store() {
      if (store === undefined)
        throw new Error('redisForSuite: no store was asked for, or beforeAll has not run');
      return store;
    },
  };
}
