import { randomUUID } from 'node:crypto';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { isRunStoreError } from '../../src/core/errors/run-store-error.js';
import { RedisRunStore } from '../../src/redis/redis-run-store.js';
import { startRunWorker } from '../../src/redis/start-run-worker.js';
import { submitRun } from '../../src/redis/submit-run.js';
import { fromRunStore } from '../../src/runs/follow-run.js';
import { toRunStore } from '../../src/runs/to-run-store.js';
import { exec } from '../../src/sources/exec.js';
import { findChild, fixture, pollUntil, processesNamed, writtenBytes } from '../support/processes.js';
import { redisCommand, redisServerPath, startRedis } from '../support/redis-server.js';
import { needs } from '../support/system-tools.js';

const ticker = fixture('redis-ticker.py');
const counter = fixture('exec-counter.py');

describe.skipIf(redisServerPath === undefined)('a run writer when Redis fails', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('a server without the scripts cached (new or restarted): pipelined appends are resent in order, none lost', async () => {
    const server = await startRedis();
    cleanup.push(() => server.stop());
    // One event per batch, many in flight: the first appends all find no cached script (NOSCRIPT),
    // and a later one could otherwise overtake an earlier one being resent.
    const store = new RedisRunStore({ url: server.url, maxBatchEvents: 1, maxInFlight: 64 });
    cleanup.push(() => store.close());
    for (let round = 0; round < 3; round += 1) {
      expect(await redisCommand(server.port, 'SCRIPT FLUSH')).toBe('+OK');
      const runId = `noscript-${round}-${randomUUID()}`;
      const writer = store.openWriter(runId);
      for (let sequence = 0; sequence < 200; sequence += 1) {
        writer.append({ sequence, kind: 'stdout', content: `line ${sequence}\n`, isFinal: sequence === 199 });
        await Promise.resolve(); // each append flushed on its own, between the replies' handlers
      }
      await writer.ended;
      const read = await lastValueFrom(fromRunStore(store, runId).pipe(toArray()));
      expect(read.map((event) => event.sequence)).toEqual([...Array(200).keys()]);
    }
  });

  it.skipIf(!needs('python3'))(
    'Redis restarts mid-run (append-only file): the writer reconnects, no event is lost',
    async () => {
      let server = await startRedis({ appendonly: true });
      const { port, dir } = server;
      cleanup.push(() => server.stop());
      const store = new RedisRunStore({ url: server.url });
      cleanup.push(() => store.close());
      const runId = `restart-${randomUUID()}`;
      const done = lastValueFrom(
        exec('python3', [ticker, '400', '0.005']).pipe(toRunStore(store, runId), toArray()),
      );
      await expect
        .poll(async () => (await store.info(runId))?.next ?? 0, { timeout: 20_000 })
        .toBeGreaterThan(50);
      await server.stop(true); // SIGTERM: Redis flushes its append-only file and exits
      server = await startRedis({ appendonly: true, port, dir });
      const written = await done;
      expect(written).toHaveLength(401);
      const read = await lastValueFrom(fromRunStore(store, runId).pipe(toArray()));
      expect(read.map((event) => event.sequence)).toEqual([...Array(401).keys()]);
      expect(read.at(-1)).toMatchObject({ kind: 'exit', isFinal: true });
    },
  );

  it.skipIf(!needs('python3'))(
    'Redis restarts without persistence: the writer ends with a typed error, never a hang or a gap',
    async () => {
      let server = await startRedis();
      const { port } = server;
      cleanup.push(() => server.stop());
      const store = new RedisRunStore({ url: server.url });
      cleanup.push(() => store.close());
      const runId = `vanish-${randomUUID()}`;
      const tag = `vanish-${process.pid}`;
      const done = lastValueFrom(
        exec('python3', [ticker, '100000', '0.005', tag]).pipe(toRunStore(store, runId)),
      ).catch((error: unknown) => error);
      await expect
        .poll(async () => (await store.info(runId))?.next ?? 0, { timeout: 20_000 })
        .toBeGreaterThan(10);
      await server.crash();
      server = await startRedis({ port });
      const error = await done;
      expect(isRunStoreError(error, 'RUN_STORE_FAILED'), String(error)).toBe(true);
      expect((error as Error).message).toMatch(/vanished from Redis/);
      expect(await pollUntil(() => findChild(tag) === undefined, 10_000)).toBe(true); // the command was stopped
    },
  );

  it.skipIf(!needs('linux', 'ps', 'python3'))(
    'CLIENT PAUSE: the producer is paused (its child blocks on its pipe), memory stays bounded, then it goes on',
    async () => {
      const server = await startRedis();
      cleanup.push(() => server.stop());
      const store = new RedisRunStore({
        url: server.url,
        maxBatchEvents: 256,
        maxInFlight: 2,
        maxEvents: 1000,
        failAfterMs: 15_000, // a pause within the store's failure bound: it waits
      });
      cleanup.push(() => store.close());
      const runId = `pause-${randomUUID()}`;
      let delivered = 0;
      const subscription = exec('python3', [counter])
        .pipe(toRunStore(store, runId))
        .subscribe({ next: () => (delivered += 1), error: () => {} });
      cleanup.push(async () => subscription.unsubscribe());
      await expect
        .poll(async () => (await store.info(runId))?.next ?? 0, { timeout: 20_000 })
        .toBeGreaterThan(10_000);
      const child = findChild(counter) as number;
      expect(child).toBeGreaterThan(0);
      const rssBefore = process.memoryUsage().rss;
      expect(await redisCommand(server.port, 'CLIENT PAUSE 6000 ALL')).toBe('+OK');
      const pausedAt = performance.now();
      // Once the writer's batches are in flight and its pending batch is full, exec stops reading:
      // the child's write count stops growing.
      let last = writtenBytes(child);
      let steadySince = performance.now();
      await pollUntil(() => {
        const now = writtenBytes(child);
        if (now !== last) {
          last = now;
          steadySince = performance.now();
        }
        return performance.now() - steadySince > 800;
      }, 3000);
      expect(performance.now() - pausedAt).toBeLessThan(4000); // the child stood still inside the pause
      const deliveredInPause = delivered;
      const written = writtenBytes(child);
      await pollUntil(() => performance.now() - pausedAt > 4500, 5000); // still inside the 6 s pause
      expect(writtenBytes(child)).toBe(written);
      expect(delivered).toBe(deliveredInPause);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024);
      // after the pause, the run goes on
      await expect.poll(() => writtenBytes(child), { timeout: 20_000 }).toBeGreaterThan(written + 100_000);
      subscription.unsubscribe(); // cancels the run: the child is killed, followers get the end
      const events = await lastValueFrom(
        fromRunStore(store, runId, { after: delivered - 5 }).pipe(toArray()),
      );
      expect(events.at(-1)).toMatchObject({ kind: 'end', metadata: { reason: 'cancelled' } });
    },
  );
});

describe.skipIf(redisServerPath === undefined)('a worker when Redis fails', () => {
  it('stop() while Redis is down: the cancel cannot be stored, the run ends here, nothing is left', async () => {
    const server = await startRedis();
    const store = new RedisRunStore({ url: server.url, blockMs: 200, failAfterMs: 1000, leaseMs: 60_000 });
    const tag = `worker-down-${randomUUID()}`;
    const log: string[] = [];
    const worker = startRunWorker(store, { log: (line) => log.push(line) });
    try {
      const runId = await submitRun(store, { file: 'bash', args: ['-c', `exec -a ${tag} sleep 1000`] });
      expect(await pollUntil(() => processesNamed(tag).length === 1, 20_000)).toBe(true);
      // The command starts before its run is opened in Redis: a Redis that went down in between
      // would fail the opening (the writer ends the run itself), not the cancel this test is about.
      await expect.poll(async () => (await store.info(runId))?.state, { timeout: 20_000 }).toBe('running');
      await server.stop();
      await worker.stop({ graceMs: 0 }); // settles: the run is ended here once the cancel fails
      expect(worker.running).toBe(0);
      expect(processesNamed(tag)).toEqual([]);
      // What the worker logged names the way the run ended if it was not the failed cancel.
      expect(
        log.some((line) => line.includes('cancelled: the store is unreachable')),
        log.join('\n'),
      ).toBe(true);
    } finally {
      for (const pid of processesNamed(tag)) process.kill(pid, 'SIGKILL');
      await store.close().catch(() => {});
    }
  });
});
