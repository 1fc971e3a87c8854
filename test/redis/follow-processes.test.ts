import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RedisRunStore } from '../../src/redis/redis-run-store.js';
import { fixture, pollUntil } from '../support/processes.js';
import { redisForSuite, redisServerPath } from '../support/redis-server.js';
import { outcomesOf, processesTagged, sequencesOf, startCli } from '../support/sluice-cli.js';
import { needs } from '../support/system-tools.js';

const ticker = fixture('redis-ticker.py');

describe.skipIf(redisServerPath === undefined)('runs on Redis, across processes', () => {
  const redis = redisForSuite({ store: {} });

  it.skipIf(!needs('python3'))(
    'a follower in another process resumes exactly after any sequence',
    async () => {
      const runId = `resume-${randomUUID()}`;
      const writer = await startCli([
        'exec',
        '--redis',
        redis.url,
        '--run-id',
        runId,
        '--',
        'python3',
        ticker,
        '40',
        '0',
      ]);
      expect(writer.exitCode).toBe(0);
      expect((await redis.store.info(runId))?.next).toBe(41); // 40 lines + the exit event
      const afters = [0, 1, 17, 38, 39];
      const followers = await Promise.all(
        afters.map((after) =>
          startCli(['follow', '--redis', redis.url, runId, '--json', '--after', String(after)]),
        ),
      );
      for (const [index, follower] of followers.entries()) {
        const after = afters[index] as number;
        expect(follower.exitCode, follower.stderr).toBe(0);
        expect(sequencesOf(follower.stdout)).toEqual([...Array(40 - after).keys()].map((n) => n + after + 1));
      }
      const text = await startCli(['follow', '--redis', redis.url, runId]);
      expect(text.stdout.split('\n').slice(0, 2)).toEqual(['tick 0', 'tick 1']);
    },
  );

  it.skipIf(!needs('python3'))(
    'two followers and one writer in three processes see the same contiguous sequences',
    async () => {
      const runId = `live-${randomUUID()}`;
      const writer = startCli([
        'exec',
        '--redis',
        redis.url,
        '--run-id',
        runId,
        '--',
        'python3',
        ticker,
        '300',
        '0.005',
      ]);
      // followers start while the run is live (it lasts about 1.5 s)
      await expect
        .poll(async () => (await redis.store.info(runId)) !== undefined, { timeout: 30_000 })
        .toBe(true);
      const followers = [1, 2].map(() => startCli(['follow', '--redis', redis.url, runId, '--json']));
      const [one, two, wrote] = await Promise.all([...followers, writer]);
      expect(wrote?.exitCode).toBe(0);
      const expected = [...Array(301).keys()];
      expect(sequencesOf(one?.stdout ?? '')).toEqual(expected);
      expect(sequencesOf(two?.stdout ?? '')).toEqual(expected);
      expect(one?.exitCode).toBe(0);
      expect((await redis.store.info(runId))?.state).toBe('ended');
    },
  );

  it.skipIf(!needs('python3'))(
    'cancel from a second instance kills the process on the first, and followers see the end',
    async () => {
      const runId = `cancel-${randomUUID()}`;
      const tag = `cancel-tag-${process.pid}-${Date.now()}`;
      const owner = startCli([
        'exec',
        '--redis',
        redis.url,
        '--run-id',
        runId,
        '--',
        'python3',
        ticker,
        '100000',
        '0.01',
        tag,
      ]);
      const child = () => processesTagged(tag).filter((pid) => pid !== owner.pid);
      expect(await pollUntil(() => child().length > 0, 20_000)).toBe(true);
      await expect
        .poll(async () => (await redis.store.info(runId))?.next ?? 0, { timeout: 20_000 })
        .toBeGreaterThan(0);
      const follower = startCli(['follow', '--redis', redis.url, runId, '--json']);
      const other = new RedisRunStore({ url: redis.url }); // another instance: its own connections
      const asked = performance.now();
      expect(await other.cancel(runId, 'stopped from elsewhere')).toBe(true);
      expect(await pollUntil(() => child().length === 0, 10_000)).toBe(true);
      const goneAfterMs = performance.now() - asked;
      await other.close();
      const [ran, followed] = await Promise.all([owner, follower]);
      expect(ran.exitCode).toBe(130);
      expect(ran.stderr).toContain('stopped from elsewhere');
      expect(followed.exitCode).toBe(130);
      const [end, last] = outcomesOf(followed.stdout).slice(-2);
      expect(end).toMatchObject({ isFinal: false, chunk: { end: { reason: 'stopped from elsewhere' } } });
      expect(last).toMatchObject({ ok: false, code: 'CANCELLED' });
      expect(goneAfterMs).toBeLessThan(5000); // generous: a loaded machine; the bench measures it
    },
  );

  it.skipIf(!needs('python3'))(
    'Ctrl-C on the publishing sluice: it says interrupted and exits 130; followers see the run cancelled from the terminal',
    async () => {
      const runId = `interrupt-${randomUUID()}`;
      const tag = `interrupt-tag-${process.pid}-${Date.now()}`;
      const owner = startCli([
        'exec',
        '--redis',
        redis.url,
        '--run-id',
        runId,
        '--',
        'python3',
        ticker,
        '100000',
        '0.01',
        tag,
      ]);
      const child = () => processesTagged(tag).filter((pid) => pid !== owner.pid);
      expect(await pollUntil(() => child().length > 0, 20_000)).toBe(true);
      await expect
        .poll(async () => (await redis.store.info(runId))?.next ?? 0, { timeout: 20_000 })
        .toBeGreaterThan(0);
      const follower = startCli(['follow', '--redis', redis.url, runId, '--json']);
      owner.kill('SIGINT');
      const [ran, followed] = await Promise.all([owner, follower]);
      expect(ran.exitCode).toBe(130);
      expect(ran.stderr).toMatch(/: interrupted by SIGINT · killed by SIGTERM · /);
      expect(followed.exitCode).toBe(130);
      const [end, last] = outcomesOf(followed.stdout).slice(-2);
      expect(end).toMatchObject({
        chunk: { end: { reason: 'cancelled', by: 'terminal', signal: 'SIGINT' } },
      });
      expect(last).toMatchObject({ ok: false, code: 'CANCELLED' });
      expect(child()).toEqual([]);
    },
  );
});
