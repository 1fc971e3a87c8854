import { randomUUID } from 'node:crypto';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { RedisRunStore } from '../../src/redis/redis-run-store.js';
import { toRunStore } from '../../src/runs/to-run-store.js';
import { exec } from '../../src/sources/exec.js';
import { pollUntil, processesWithTag } from '../support/processes.js';
import { redisCliPath, startRedisCluster } from '../support/redis-cluster.js';
import { freePort, redisForSuite, redisServerPath } from '../support/redis-server.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { startCli } from '../support/sluice-cli.js';

describe.skipIf(redisServerPath === undefined)('sluice cancel', () => {
  const redis = redisForSuite({ store: {} });

  it('cancels a `sluice exec --redis` run from elsewhere: its whole group is gone, the run ends cancelled', async () => {
    const runId = `cancel-${randomUUID()}`;
    const tag = `sluice-cancel-${randomUUID()}`;
    // The shell and two more that wait on their sleeps, each carrying the tag: the group to be killed.
    const script = `echo ready; sh -c "sleep 300; : ${tag}" & sh -c "sleep 300; : ${tag}"`;
    const run = startCli(['exec', '--redis', redis.url, '--run-id', runId, '--', 'sh', '-c', script]);
    await expect
      .poll(async () => (await redis.store.info(runId))?.next ?? 0, { timeout: 20_000 })
      .toBeGreaterThan(0);
    expect(await pollUntil(() => processesWithTag(tag).length >= 3, 10_000)).toBe(true);

    const cancel = await runCliInProcess(['cancel', '--redis', redis.url, runId]);
    expect(cancel).toMatchObject({ code: 0, stdout: '' });
    expect(cancel.stderr).toBe(`sluice: run ${runId}: cancel sent to its owner\n`);

    const ran = await run;
    expect(ran.stdout).toBe('ready');
    expect(ran.stderr).toMatch(/sluice: sh -c .*: cancelled/);
    expect(ran.exitCode).toBe(130);
    expect(await pollUntil(() => processesWithTag(tag).length === 0, 5000)).toBe(true);
    expect((await redis.store.info(runId))?.state).toBe('ended');

    // Once it has ended, there is nothing left to cancel.
    const again = await runCliInProcess(['cancel', '--redis', redis.url, runId]);
    expect(again).toMatchObject({
      code: 1,
      stderr: `sluice: run ${runId}: not cancelled, it has already ended\n`,
    });
  }, 60_000);

  it('says so when the run is not in that Redis (exit 1)', async () => {
    const result = await runCliInProcess(['cancel', '--redis', redis.url, 'no-such-run']);
    expect(result).toMatchObject({
      code: 1,
      stderr: 'sluice: run no-such-run: no such run in that Redis (or its retention has passed)\n',
    });
  });

  it('names the address and the cause when Redis cannot be reached (exit 1)', async () => {
    const port = await freePort();
    const result = await runCliInProcess(['cancel', '--redis', `redis://127.0.0.1:${port}`, 'build-7']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `sluice: run build-7: cancel failed: cannot reach Redis at 127.0.0.1:${port}: connection refused (ECONNREFUSED)\n`,
    );
  });

  it.each([
    [['cancel', 'build-7'], 'Missing `--redis <url>`'],
    [['cancel', '--redis', 'redis://h'], 'Expected one run id'],
    [['cancel', '--redis', 'redis://h', 'a', 'b'], 'Expected one run id'],
    [['cancel', '--redis', 'redis://h', 'a{b}'], 'Not a run id: `a{b}`'],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const result = await runCliInProcess(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Try `sluice cancel --help`.');
  });
});

describe.skipIf(redisServerPath === undefined || redisCliPath === undefined)(
  'sluice cancel --redis-cluster',
  () => {
    it('cancels a run kept in a Redis Cluster, given its startup nodes: the group is gone', async () => {
      const cluster = await startRedisCluster();
      const store = new RedisRunStore({ cluster: cluster.addresses });
      try {
        const runId = `cancel-${randomUUID()}`;
        const tag = `sluice-cancel-${randomUUID()}`;
        const script = `echo ready; sh -c "sleep 300; : ${tag}"`;
        const events = lastValueFrom(
          exec('sh', ['-c', script], { reject: false }).pipe(toRunStore(store, runId), toArray()),
        );
        await expect
          .poll(async () => (await store.info(runId))?.next ?? 0, { timeout: 20_000 })
          .toBeGreaterThan(0);
        const result = await runCliInProcess([
          'cancel',
          '--redis-cluster',
          cluster.addresses.join(','),
          runId,
        ]);
        expect(result).toMatchObject({ code: 0, stderr: `sluice: run ${runId}: cancel sent to its owner\n` });
        const last = (await events).at(-1);
        expect(last).toMatchObject({
          kind: 'end',
          isFinal: true,
          metadata: { reason: 'cancelled', by: 'cli' },
        });
        expect(await pollUntil(() => processesWithTag(tag).length === 0, 5000)).toBe(true);
      } finally {
        await store.close();
        await cluster.stop();
      }
    }, 90_000);
  },
);
