import { describe, expect, it } from 'vitest';
import { RedisRunStore } from '../../src/redis/redis-run-store.js';
import { freePort, redisCommand, redisServerPath, startRedis } from '../support/redis-server.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

// A failure bound far longer than any of these tests may take: whatever ends them early is the
// connection's own refusal, not the bound.
const BOUND_MS = 60_000;

describe('a Redis that cannot be reached', () => {
  it(
    'a failFast store with nothing listening at its address fails at once, naming the address and the cause',
    async () => {
      const port = await freePort();
      const store = new RedisRunStore({
        url: `redis://127.0.0.1:${port}`,
        failAfterMs: BOUND_MS,
        failFast: true,
      });
      const started = performance.now();
      const read = await new Promise<unknown>((resolve) => {
        store.read('build-7').subscribe({ error: resolve, complete: () => resolve(undefined) });
      });
      expect(performance.now() - started).toBeLessThan(BOUND_MS / 4);
      expect(String(read)).toContain(
        `cannot reach Redis at 127.0.0.1:${port}: connection refused (ECONNREFUSED)`,
      );
      await store.close();
    },
    BOUND_MS,
  );

  it.skipIf(redisServerPath === undefined)(
    'a store without failFast keeps retrying: it connects to a Redis that starts after it',
    async () => {
      const port = await freePort();
      const store = new RedisRunStore({ url: `redis://127.0.0.1:${port}`, failAfterMs: BOUND_MS });
      // The store's first connects are refused; then Redis comes up at that address.
      const refused = new Promise<void>((resolve) => store.client.once('error', () => resolve()));
      await refused;
      const server = await startRedis({ port });
      try {
        expect(await store.client.ping()).toBe('PONG');
      } finally {
        await store.close();
        await server.stop();
      }
    },
    BOUND_MS,
  );

  it.skipIf(redisServerPath === undefined)(
    'credentials the server refuses are said as such, at once',
    async () => {
      const server = await startRedis();
      try {
        expect(await redisCommand(server.port, 'CONFIG SET requirepass s3cret-pass')).toBe('+OK');
        const store = new RedisRunStore({
          url: `redis://:wrong@127.0.0.1:${server.port}`,
          failAfterMs: BOUND_MS,
          failFast: true,
        });
        const started = performance.now();
        const read = await new Promise<unknown>((resolve) => {
          store.read('build-7').subscribe({ error: resolve, complete: () => resolve(undefined) });
        });
        expect(performance.now() - started).toBeLessThan(BOUND_MS / 4);
        expect(String(read)).toContain(
          `cannot reach Redis at 127.0.0.1:${server.port}: authentication failed`,
        );
        await store.close();
      } finally {
        await server.stop();
      }
    },
    BOUND_MS,
  );

  it(
    '`sluice follow` says refused at the address and exits 1, without waiting out the bound',
    async () => {
      const port = await freePort();
      const started = performance.now();
      const result = await runCliInProcess([
        'follow',
        '--redis',
        `redis://127.0.0.1:${port}`,
        '--redis-timeout-ms',
        String(BOUND_MS),
        'build-7',
      ]);
      expect(performance.now() - started).toBeLessThan(BOUND_MS / 4);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `cannot reach Redis at 127.0.0.1:${port}: connection refused (ECONNREFUSED)`,
      );
      expect(result.stderr).not.toContain('timed out');
    },
    BOUND_MS,
  );

  it(
    '`sluice exec --redis` runs the command unheld and says publishing could not start, not a timeout',
    async () => {
      const port = await freePort();
      const started = performance.now();
      const result = await runCliInProcess([
        'exec',
        '--redis',
        `redis://127.0.0.1:${port}`,
        '--redis-timeout-ms',
        String(BOUND_MS),
        '--',
        'echo',
        'hello',
      ]);
      expect(performance.now() - started).toBeLessThan(BOUND_MS / 4);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('hello\n');
      expect(result.stderr).toContain(
        `cannot reach Redis at 127.0.0.1:${port}: connection refused (ECONNREFUSED)`,
      );
      expect(result.stderr).toContain('the command goes on');
      expect(result.stderr).not.toContain('timed out');
    },
    BOUND_MS,
  );
});
