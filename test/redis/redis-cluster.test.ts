import { randomUUID } from 'node:crypto';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../src/core/chunk.js';
import { RedisRunStore } from '../../src/redis/redis-run-store.js';
import { runKeys } from '../../src/redis/run-keys.js';
import { queueKey } from '../../src/redis/submit-job.js';
import { fromRunStore } from '../../src/runs/follow-run.js';
import { chunk } from '../support/chunk.js';
import { fixture, pollUntil } from '../support/processes.js';
import { type RedisCluster, redisCliPath, startRedisCluster } from '../support/redis-cluster.js';
import { redisServerPath } from '../support/redis-server.js';
import { outcomesOf, processesTagged, sequencesOf, startCli } from '../support/sluice-cli.js';
import { needs } from '../support/system-tools.js';

const ticker = fixture('redis-ticker.py');

const line = (sequence: number, last: number) => chunk(sequence, `line ${sequence}\n`, sequence === last);

/** Run ids whose slots are served by each of the cluster's three masters, one per master. */
async function idsOnEachMaster(cluster: RedisCluster): Promise<Map<number, string>> {
  const byMaster = new Map<number, string>();
  for (let attempt = 0; byMaster.size < 3 && attempt < 200; attempt += 1) {
    const runId = `cluster-${randomUUID()}`;
    const slot = await cluster.slotOf(runId);
    const master = await cluster.masterOf(slot);
    if (!byMaster.has(master)) byMaster.set(master, runId);
  }
  return byMaster;
}

describe.skipIf(redisServerPath === undefined || redisCliPath === undefined)(
  'RedisRunStore on a Redis Cluster (3 masters, 3 replicas)',
  () => {
    let cluster: RedisCluster;
    let store: RedisRunStore;
    beforeAll(async () => {
      cluster = await startRedisCluster();
      store = new RedisRunStore({ cluster: cluster.addresses, blockMs: 300 });
    }, 60_000);
    afterAll(async () => {
      await store?.close();
      await cluster?.stop();
    });

    it("every key of a run is in its run id's slot; the queue is one documented key", async () => {
      for (const runId of ['a', 'build-7', randomUUID()]) {
        const slot = await cluster.slotOf(runId);
        const keys = runKeys(store.prefix, runId);
        for (const key of [keys.events, keys.meta, keys.lease, keys.control]) {
          expect(await cluster.slotOf(key)).toBe(slot);
        }
      }
      expect(queueKey(store.prefix)).toBe('sluice:queue');
    });

    it('runs whose ids land on each master are written and followed whole, and resumed after any sequence', async () => {
      const ids = await idsOnEachMaster(cluster);
      expect(ids.size).toBe(3);
      for (const runId of ids.values()) {
        const writer = store.openWriter(runId);
        for (let sequence = 0; sequence < 500; sequence += 1) writer.append(line(sequence, 499));
        await writer.ended;
        const other = new RedisRunStore({ cluster: [cluster.addresses[5] as string] });
        const all = await lastValueFrom(fromRunStore(other, runId).pipe(toArray()));
        expect(all.map((event) => event.sequence)).toEqual([...Array(500).keys()]);
        const resumed = await lastValueFrom(fromRunStore(other, runId, { after: 321 }).pipe(toArray()));
        expect(resumed[0]?.sequence).toBe(322);
        expect(resumed.length).toBe(500 - 322);
        await other.close();
      }
    });

    it('the CLI: exec --redis-cluster, then follow and resume from other processes; cancel from another instance', async () => {
      const ids = [...(await idsOnEachMaster(cluster)).values()];
      const nodes = cluster.addresses.join(',');
      const [first, second] = ids as [string, string];
      const writer = await startCli([
        'exec',
        '--redis-cluster',
        nodes,
        '--run-id',
        first,
        '--',
        'sh',
        '-c',
        'seq 1 3000; exit 6',
      ]);
      expect(writer.exitCode, writer.stderr).toBe(6);
      const [whole, resumed] = await Promise.all([
        startCli(['follow', '--redis-cluster', cluster.addresses[1] as string, first]),
        startCli(['follow', '--redis-cluster', nodes, first, '--json', '--after', '2000']),
      ]);
      expect(whole.exitCode).toBe(6);
      expect(whole.stdout.split('\n')).toEqual([...Array(3000).keys()].map((n) => String(n + 1)));
      expect(resumed.exitCode).toBe(6);
      expect(sequencesOf(resumed.stdout)).toEqual([...Array(1000).keys()].map((n) => n + 2001));
      // cancel from another instance: the owner's command is stopped, followers see the end
      const owner = startCli([
        'exec',
        '--redis-cluster',
        nodes,
        '--run-id',
        second,
        '--',
        'sh',
        '-c',
        'while :; do echo tick; sleep 0.02; done',
      ]);
      await expect
        .poll(async () => (await store.info(second))?.next ?? 0, { timeout: 20_000 })
        .toBeGreaterThan(0);
      const follower = startCli(['follow', '--redis-cluster', nodes, second, '--json']);
      const other = new RedisRunStore({ cluster: [cluster.addresses[3] as string] });
      expect(await other.cancel(second, 'from elsewhere')).toBe(true);
      await other.close();
      const [ran, followed] = await Promise.all([owner, follower]);
      expect(ran.exitCode).toBe(130);
      expect(followed.exitCode).toBe(130);
      expect(outcomesOf(followed.stdout).at(-2)).toMatchObject({
        chunk: { end: { reason: 'from elsewhere' } },
      });
    }, 90_000);

    it('a master killed mid-run: its replica takes over, the writer goes on, followers resume — every sequence once, or a typed RUN_STORE_FAILED', async () => {
      const ids = await idsOnEachMaster(cluster);
      const [master, runId] = [...ids.entries()][0] as [number, string];
      const writerStore = new RedisRunStore({
        cluster: cluster.addresses,
        failAfterMs: 15_000,
        maxBatchEvents: 50,
      });
      const followerStore = new RedisRunStore({
        cluster: cluster.addresses,
        failAfterMs: 15_000,
        blockMs: 300,
      });
      const writer = writerStore.openWriter(runId);
      const ended = writer.ended.then(
        () => undefined,
        (error: unknown) => error,
      );
      let followed: Promise<{ events: ChunkEvent<unknown>[] } | { error: unknown }> | undefined;
      const total = 6000;
      let crashed = false;
      for (let sequence = 0; sequence < total; sequence += 1) {
        if (sequence === 100) {
          // a follower from another instance, live from the start
          await expect.poll(async () => (await store.info(runId))?.next ?? 0).toBeGreaterThan(0);
          followed = lastValueFrom(fromRunStore(followerStore, runId).pipe(toArray())).then(
            (events) => ({ events }),
            (error: unknown) => ({ error }),
          );
        }
        if (sequence === 2000) {
          await cluster.crash(master);
          crashed = true;
        }
        try {
          writer.append(line(sequence, total - 1));
        } catch {
          break; // the writer ended (a typed failure, checked below)
        }
        if (sequence % 20 === 19) await new Promise((resolve) => setTimeout(resolve, 2));
        while (writer.demand.paused) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const failure = await ended;
      expect(crashed).toBe(true);
      const result = await (followed as NonNullable<typeof followed>);
      await writerStore.close();
      await followerStore.close();
      if (failure === undefined) {
        // the writer went on: the follower saw every sequence exactly once
        expect('events' in result && result.events.map((event) => event.sequence)).toEqual([
          ...Array(total).keys(),
        ]);
        expect(await cluster.masterOf(await cluster.slotOf(runId))).not.toBe(master);
      } else {
        // replication is asynchronous: the promoted replica may lack the last acknowledged batches
        expect(failure).toMatchObject({ code: 'RUN_STORE_FAILED' });
        if ('events' in result) throw new Error('the follower ended as if the run were whole');
        expect(result.error).toMatchObject({
          code: expect.stringMatching(/RUN_STORE_FAILED|OWNER_LOST|STREAM_SEQUENCE/),
        });
      }
      // The next test starts on a settled cluster: every live node agrees on the promoted master.
      await cluster.waitForFailover(await cluster.slotOf(runId), master);
    }, 90_000);

    it.skipIf(!needs('python3'))(
      'the worker pool on the cluster: submitted runs with their exit codes and retention; a kill -9ed worker is reclaimed',
      async () => {
        const nodes = cluster.addresses.join(',');
        const flags = ['--redis-cluster', nodes, '--lease-ms', '500', '--claim-idle-ms', '1500'];
        const first = startCli(['worker', ...flags, '--concurrency', '2']);
        const submit = (command: string, more: string[] = []) =>
          startCli(['submit', '--redis-cluster', nodes, ...more, '--', 'sh', '-c', command]).then(
            (result) => {
              expect(result.exitCode, result.stderr).toBe(0);
              return result.stdout.trim();
            },
          );
        const ids = await Promise.all([
          submit('echo one; exit 2'),
          submit('seq 1 5000', ['--max-events', '100']),
        ]);
        const followed = await Promise.all(
          ids.map((id) => startCli(['follow', '--redis-cluster', nodes, id])),
        );
        // What follow said on stderr names the cause if a follower saw less than the whole run.
        expect(followed[0]?.stdout, followed[0]?.stderr).toBe('one');
        expect(followed[0]?.exitCode).toBe(2);
        expect(followed[1]?.exitCode).toBe(0);
        expect(followed[1]?.stderr).toMatch(/events 0\.\.\d+ \(\d+\) were trimmed/);
        expect(followed[1]?.stdout.split('\n').at(-1)).toBe('5000');
        // kill -9 of the worker mid-run: a second worker reclaims the entry, followers get OWNER_LOST
        const tag = `cluster-crash-${process.pid}-${randomUUID()}`;
        const runId = await submit(`exec python3 ${ticker} 100000 0.02 ${tag}`);
        await expect
          .poll(async () => (await store.info(runId))?.next ?? 0, { timeout: 20_000 })
          .toBeGreaterThan(2);
        const follower = startCli(['follow', '--redis-cluster', nodes, runId]);
        const survivor = startCli(['worker', ...flags]);
        first.kill('SIGKILL');
        const lost = await follower;
        expect(lost.exitCode).toBe(1);
        expect(lost.stderr).toContain('OWNER_LOST');
        await expect
          .poll(async () => ((await store.client.xpending('sluice:queue', 'workers')) as [number])[0], {
            timeout: 20_000,
          })
          .toBe(0);
        expect(await pollUntil(() => processesTagged(tag).length === 0, 10_000)).toBe(true);
        survivor.kill('SIGTERM');
        expect((await survivor).exitCode).toBe(0);
        await first;
      },
      90_000,
    );
  },
);
