import { randomUUID } from 'node:crypto';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { isOwnerLostError } from '../../src/core/errors/owner-lost-error.js';
import { runKeys } from '../../src/redis/run-keys.js';
import { submitJob } from '../../src/redis/submit-job.js';
import { fromRunStore } from '../../src/runs/follow-run.js';
import { fixture, pollUntil } from '../support/processes.js';
import { redisForSuite, redisServerPath } from '../support/redis-server.js';
import { processesTagged, startCli } from '../support/sluice-cli.js';
import { needs } from '../support/system-tools.js';

const ticker = fixture('redis-ticker.py');

describe.skipIf(redisServerPath === undefined)('the worker pool (sluice worker, real processes)', () => {
  const redis = redisForSuite({ store: { blockMs: 200 } });

  it('runs submitted commands, with their exit codes, up to its concurrency', async () => {
    const worker = startCli(['worker', '--redis', redis.url, '--concurrency', '2']);
    const ids = await Promise.all(
      [0, 3, 7].map(async (code) => {
        const submitted = await startCli([
          'submit',
          '--redis',
          redis.url,
          '--',
          'sh',
          '-c',
          `echo hi ${code}; exit ${code}`,
        ]);
        expect(submitted.exitCode, submitted.stderr).toBe(0);
        return submitted.stdout.trim();
      }),
    );
    const followed = await Promise.all(ids.map((id) => startCli(['follow', '--redis', redis.url, id])));
    expect(followed.map((result) => result.exitCode)).toEqual([0, 3, 7]);
    expect(followed.map((result) => result.stdout)).toEqual(['hi 0', 'hi 3', 'hi 7']);
    worker.kill('SIGTERM');
    const stopped = await worker;
    expect(stopped.exitCode).toBe(0);
    expect(stopped.stderr).toContain('stopped');
  });

  it.skipIf(!needs('python3'))(
    'kill -9 of a worker mid-run: its run is reclaimed, followers get OWNER_LOST, nothing is left running',
    async () => {
      const tag = `crash-${process.pid}-${randomUUID()}`;
      const flags = ['--redis', redis.url, '--lease-ms', '500', '--claim-idle-ms', '1500'];
      const doomed = startCli(['worker', ...flags]);
      const runId = await submitJob(redis.store, { file: 'python3', args: [ticker, '100000', '0.02', tag] });
      const child = () => processesTagged(tag);
      expect(await pollUntil(() => child().length > 0, 20_000)).toBe(true);
      await expect
        .poll(async () => (await redis.store.info(runId))?.next ?? 0, { timeout: 20_000 })
        .toBeGreaterThan(2);
      expect((await redis.store.info(runId))?.owner).toContain(`:${doomed.pid}:`);
      const followed = lastValueFrom(fromRunStore(redis.store, runId).pipe(toArray())).catch(
        (error: unknown) => error,
      );
      const survivor = startCli(['worker', ...flags]);
      doomed.kill('SIGKILL');
      const error = await followed;
      expect(isOwnerLostError(error), String(error)).toBe(true);
      // the survivor reclaims the entry and acknowledges it; the command died with its pipe
      await expect
        .poll(async () => ((await redis.store.client.xpending('sluice:queue', 'workers')) as [number])[0], {
          timeout: 20_000,
        })
        .toBe(0);
      expect(await pollUntil(() => child().length === 0, 10_000)).toBe(true);
      const info = await redis.store.info(runId);
      expect(info?.state).toBe('ended');
      expect(info?.failure?.code).toBe('OWNER_LOST');
      survivor.kill('SIGTERM');
      expect((await survivor).exitCode).toBe(0);
      await doomed;
    },
  );

  it.skipIf(!needs('python3'))(
    'SIGTERM: running commands get the grace period, then are cancelled, and the worker exits 0',
    async () => {
      const tag = `grace-${process.pid}-${randomUUID()}`;
      const worker = startCli(['worker', '--redis', redis.url, '--grace-ms', '300']);
      const runId = await submitJob(redis.store, { file: 'python3', args: [ticker, '100000', '0.02', tag] });
      await expect
        .poll(async () => (await redis.store.info(runId))?.next ?? 0, { timeout: 20_000 })
        .toBeGreaterThan(0);
      const followed = lastValueFrom(fromRunStore(redis.store, runId).pipe(toArray()));
      worker.kill('SIGTERM');
      const events = await followed;
      expect(events.at(-1)).toMatchObject({
        kind: 'end',
        metadata: { reason: 'worker-stopped' },
        isFinal: true,
      });
      expect((await worker).exitCode).toBe(0);
      expect(await pollUntil(() => processesTagged(tag).length === 0, 10_000)).toBe(true);
    },
  );

  it('a run cancelled while queued ends at once, and no worker runs it', async () => {
    const runId = await submitJob(redis.store, { file: 'sh', args: ['-c', 'echo should-not-run'] });
    expect((await redis.store.info(runId))?.state).toBe('queued');
    expect(await redis.store.cancel(runId, 'not needed')).toBe(true);
    const events = await lastValueFrom(fromRunStore(redis.store, runId).pipe(toArray()));
    expect(events).toEqual([
      { sequence: 0, kind: 'end', content: null, metadata: { reason: 'not needed' }, isFinal: true },
    ]);
  });

  it('a job it cannot read ends its run (reason invalid-job); an oversized tracestate is only dropped', async () => {
    const meta = (runId: string) => runKeys(redis.store.prefix, runId).meta;
    const rewriteJob = async (runId: string, change: (job: Record<string, unknown>) => void) => {
      const job = JSON.parse((await redis.store.client.hget(meta(runId), 'job')) ?? 'null');
      change(job);
      await redis.store.client.hset(meta(runId), 'job', JSON.stringify(job));
    };
    const broken = await submitJob(redis.store, { file: 'sh', args: ['-c', 'echo should-not-run'] });
    await rewriteJob(broken, (job) => {
      job.file = 42;
    });
    const traced = await submitJob(redis.store, { file: 'sh', args: ['-c', 'echo ran'] });
    await rewriteJob(traced, (job) => {
      job.traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      job.tracestate = `v=${'x'.repeat(600)}`;
    });
    const worker = startCli(['worker', '--redis', redis.url]);
    const [brokenEvents, tracedEvents] = await Promise.all(
      [broken, traced].map((runId) => lastValueFrom(fromRunStore(redis.store, runId).pipe(toArray()))),
    );
    expect(brokenEvents).toEqual([
      { sequence: 0, kind: 'end', content: null, metadata: { reason: 'invalid-job' }, isFinal: true },
    ]);
    expect(tracedEvents?.map((event) => [event.kind, event.kind === 'exit' ? 0 : event.content])).toEqual([
      ['stdout', 'ran\n'],
      ['exit', 0],
    ]);
    worker.kill('SIGTERM');
    const stopped = await worker;
    expect(stopped.stderr).toContain(`ended run ${broken}: its job is not one this worker can read`);
  });
});
