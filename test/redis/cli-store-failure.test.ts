import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RedisRunStore } from '../../src/redis/redis-run-store.js';
import { pollUntil } from '../support/processes.js';
import { redisServerPath, startRedis } from '../support/redis-server.js';
import { startCli } from '../support/sluice-cli.js';

// 40 lines over ~2 s, then exit 5.
const SCRIPT = 'for i in $(seq 1 40); do echo line $i; sleep 0.05; done; exit 5';

describe.skipIf(redisServerPath === undefined)(
  'a Redis that dies mid-run does not take the run with it',
  () => {
    it.each([
      [[], 5],
      [['--redis-strict'], 75],
    ])(
      'kill -9 of redis-server 0.8 s in (%j): every line, the failure said, then exit %i',
      async (flags, code) => {
        const server = await startRedis();
        const runId = `dies-${randomUUID()}`;
        const store = new RedisRunStore({ url: server.url, failAfterMs: 2000, blockMs: 200 });
        const started = performance.now();
        const run = startCli([
          'exec',
          '--redis',
          server.url,
          '--run-id',
          runId,
          '--redis-timeout-ms',
          '2000',
          ...flags,
          '--',
          'sh',
          '-c',
          SCRIPT,
        ]);
        await expect
          .poll(async () => (await store.info(runId))?.next ?? 0, { timeout: 10_000 })
          .toBeGreaterThan(0);
        const follower = startCli(['follow', '--redis', server.url, runId, '--redis-timeout-ms', '2000']);
        await pollUntil(() => performance.now() - started > 800, 5000);
        await server.crash();
        const [ran, followed] = await Promise.all([run, follower]);
        const tookMs = performance.now() - started;
        await store.close();
        expect(ran.stdout.split('\n')).toEqual([...Array(40).keys()].map((n) => `line ${n + 1}`));
        expect(ran.stderr).toMatch(
          new RegExp(`publishing run ${runId} stopped \\(RUN_STORE_FAILED: .*\\); the command goes on`),
        );
        expect(ran.exitCode).toBe(code);
        // the command's ~2 s (more on a loaded machine), the 2 s bound, and the processes' start-up
        expect(tookMs).toBeLessThan(12_000);
        expect(followed.exitCode).toBe(1);
        expect(followed.stderr).toMatch(/RUN_STORE_FAILED|OWNER_LOST/);
      },
      30_000,
    );

    it('a dead Redis costs `sluice exec --redis` one failure bound, not two', async () => {
      const boundMs = 2500;
      const server = await startRedis();
      const runId = `bound-${randomUUID()}`;
      const store = new RedisRunStore({ url: server.url, failAfterMs: 5000 });
      // The command ends as soon as Redis is gone: what is left after that is the CLI's own wait.
      const script = `echo up; while kill -0 ${server.process.pid} 2>/dev/null; do sleep 0.05; done; echo gone; exit 3`;
      const run = startCli([
        'exec',
        '--redis',
        server.url,
        '--run-id',
        runId,
        '--redis-timeout-ms',
        String(boundMs),
        '--',
        'sh',
        '-c',
        script,
      ]);
      await expect
        .poll(async () => (await store.info(runId))?.next ?? 0, { timeout: 10_000 })
        .toBeGreaterThan(0);
      await store.close();
      const killed = performance.now();
      await server.crash();
      const ran = await run;
      const afterKillMs = performance.now() - killed;
      expect(ran.stdout).toBe('up\ngone');
      expect(ran.stderr).toMatch(`publishing run ${runId} stopped (RUN_STORE_FAILED`);
      expect(ran.exitCode).toBe(3);
      // One bound (the writer's last try) and the exit, with room for a loaded machine; a second
      // bound (a command left waiting on the dead connection) would pass 2 × boundMs.
      expect(afterKillMs).toBeGreaterThan(boundMs);
      expect(afterKillMs).toBeLessThan(1.5 * boundMs + 1000);
    }, 30_000);
  },
);
