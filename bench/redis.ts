import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { lastValueFrom, toArray } from 'rxjs';
import { RedisRunStore } from '../src/redis/index.js';
import { fromRunStore } from '../src/runs/follow-run.js';
import { toRunStore } from '../src/runs/to-run-store.js';
import { exec } from '../src/sources/exec.js';
import type { RedisMemoryFigures, RunResult } from './bench-result.js';
import { LINE_BYTES, writeLinesFile } from './line-format.js';
import { startBenchCluster, startBenchRedis } from './redis-server.js';

const FOLLOWER = fileURLToPath(new URL('./redis-follower.ts', import.meta.url));

/** Starts the follower process and resolves once it is connected, with its final JSON line. */
async function startFollower(url: string, runId: string, mode: 'count' | 'latency') {
  const child = spawn(process.execPath, ['--import', 'tsx', FOLLOWER, url, runId, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.value !== 'ready') throw new Error(`the follower did not start: ${first.value}`);
  const result = (async () => {
    let last = '';
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) last = next.value;
    const [code] = await once(child, 'exit').catch(() => [child.exitCode]);
    if (code !== 0 && child.exitCode !== 0) throw new Error(`the follower exited with ${code}`);
    return JSON.parse(last) as { lines?: number; lastNs?: string; latenciesUs?: number[] };
  })();
  return { result };
}

/**
 * `redis-throughput`: a `cat` child of `lines` 60-byte lines → `exec` → `toRunStore` → Redis →
 * `fromRunStore` in another process (sequences checked by `checkSequence`). The time runs from the
 * writer's subscribe to the follower's final event (both read CLOCK_MONOTONIC).
 */
export async function measureRedisThroughput(
  tmp: string,
  lines: number,
  cluster = false,
): Promise<RunResult> {
  const file = join(tmp, 'redis-lines.txt');
  await writeLinesFile(file, lines);
  const redis = cluster ? await startBenchCluster() : await startBenchRedis();
  const store = new RedisRunStore({ ...redis.connection, maxEvents: lines + 10 });
  try {
    const runId = 'throughput';
    const follower = await startFollower(redis.address, runId, 'count');
    const started = process.hrtime.bigint();
    await lastValueFrom(exec('cat', [file]).pipe(toRunStore(store, runId)));
    const { lines: received = 0, lastNs = '0' } = await follower.result;
    return { lines: received, expectedLines: lines, seconds: Number(BigInt(lastNs) - started) / 1e9 };
  } finally {
    await store.close();
    await redis.stop();
  }
}

/**
 * `redis-latency`: the ticker writes one stamped line per `everyMs` ms; each goes through exec →
 * toRunStore → Redis → a follower in another process, which records stamp → handler.
 */
export async function measureRedisLatency(
  ticker: string,
  count: number,
  everyMs: number,
  cluster = false,
): Promise<RunResult> {
  const redis = cluster ? await startBenchCluster() : await startBenchRedis();
  const store = new RedisRunStore(redis.connection);
  try {
    const runId = 'latency';
    const follower = await startFollower(redis.address, runId, 'latency');
    await lastValueFrom(
      exec(process.execPath, [ticker, String(count), String(everyMs)]).pipe(toRunStore(store, runId)),
    );
    const { latenciesUs = [] } = await follower.result;
    return { latenciesUs };
  } finally {
    await store.close();
    await redis.stop();
  }
}

/**
 * `redis-memory`: Redis's `used_memory` growth for `runs` ended runs of `linesPerRun` 60-byte
 * lines each, written once in batches (the most compact: one entry per run here) and once with
 * one entry per line (a slow producer: the least compact).
 */
export async function measureRedisMemory(runs: number, linesPerRun: number): Promise<RunResult> {
  const measure = async (maxBatchEvents: number): Promise<number> => {
    const redis = await startBenchRedis();
    const store = new RedisRunStore({ url: redis.url, maxBatchEvents, maxInFlight: 64 });
    try {
      const used = async () => Number(/used_memory:(\d+)/.exec(await store.client.info('memory'))?.[1]);
      const before = await used();
      const pad = 'x'.repeat(LINE_BYTES - 12);
      for (let start = 0; start < runs; start += 50) {
        await Promise.all(
          Array.from({ length: Math.min(50, runs - start) }, async (_, offset) => {
            const writer = store.openWriter(`run-${start + offset}`);
            for (let sequence = 0; sequence < linesPerRun; sequence += 1) {
              const content = `${String(sequence).padStart(10, '0')} ${pad}\n`;
              writer.append({ sequence, kind: 'stdout', content, isFinal: false });
            }
            writer.append({ sequence: linesPerRun, kind: 'exit', content: { exitCode: 0 }, isFinal: true });
            await writer.ended;
          }),
        );
      }
      return (await used()) - before;
    } finally {
      await store.close();
      await redis.stop();
    }
  };
  const batched = await measure(1024);
  const perLine = await measure(1);
  const figures: RedisMemoryFigures = { runs, linesPerRun, batchedBytes: batched, perLineBytes: perLine };
  return { redisMemory: figures };
}

/**
 * `redis-cancel`: `cancel()` on one store instance (its own connections) → the owner's
 * `onCancel` on another, through Redis (the pub/sub control channel), `reps` times.
 */
export async function measureRedisCancel(reps: number): Promise<RunResult> {
  const redis = await startBenchRedis();
  const owner = new RedisRunStore({ url: redis.url });
  const other = new RedisRunStore({ url: redis.url });
  try {
    const cancelMs: number[] = [];
    for (let rep = 0; rep < reps; rep += 1) {
      const writer = owner.openWriter(`cancel-${rep}`);
      writer.append({ sequence: 0, kind: 'stdout', content: 'x\n', isFinal: false });
      while ((await other.info(`cancel-${rep}`))?.next !== 1)
        await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => setTimeout(resolve, 20)); // the owner's SUBSCRIBE has gone out
      const asked = performance.now();
      const reached = new Promise<void>((resolve) =>
        writer.onCancel(() => {
          cancelMs.push(performance.now() - asked);
          resolve();
        }),
      );
      await other.cancel(`cancel-${rep}`);
      await reached;
      writer.append({
        sequence: 1,
        kind: 'end',
        content: null,
        metadata: { reason: 'cancelled' },
        isFinal: true,
      });
      await writer.ended;
    }
    return { cancelMs };
  } finally {
    await owner.close();
    await other.close();
    await redis.stop();
  }
}

/**
 * `redis-cluster-failover`: a writer appends one line per millisecond to a run on a 3-master
 * cluster; the master of the run's slot is killed (`SIGKILL`), its replica is promoted, and the
 * figure is the time from the kill to the first event written after it being stored (read back
 * from the new master), `reps` times on fresh clusters. Every sequence is checked at the end.
 */
export async function measureRedisClusterFailover(reps: number): Promise<RunResult> {
  const cancelMs: number[] = [];
  let typedFailures = 0;
  for (let rep = 0; rep < reps; rep += 1) {
    const redis = await startBenchCluster();
    const store = new RedisRunStore({ ...redis.connection, failAfterMs: 20_000 });
    const probe = new RedisRunStore({ ...redis.connection, failAfterMs: 20_000 });
    try {
      const runId = `failover-${rep}`;
      const writer = store.openWriter(runId);
      let failure: unknown;
      writer.ended.catch((error: unknown) => {
        failure = error;
      });
      let sequence = 0;
      const write = () =>
        writer.append({ sequence, kind: 'stdout', content: `line ${sequence++}\n`, isFinal: false });
      for (; sequence < 500; ) {
        write();
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      const master = await redis.cluster.masterOf(await redis.cluster.slotOf(runId));
      await redis.cluster.crash(master);
      const killed = performance.now();
      const after = sequence;
      let stored = 0;
      while (stored <= after && failure === undefined) {
        if (!writer.demand.paused) write();
        await new Promise((resolve) => setTimeout(resolve, 1));
        stored = (await probe.info(runId).catch(() => undefined))?.next ?? 0;
        if (performance.now() - killed > 30_000) throw new Error('the writer did not go on within 30 s');
      }
      if (failure !== undefined) {
        // The promoted replica lacked acknowledged writes (replication is asynchronous): a typed
        // end, counted and said on stderr; anything else fails the measurement.
        if ((failure as { code?: string }).code !== 'RUN_STORE_FAILED') throw failure;
        typedFailures += 1;
        process.stderr.write(`redis-cluster-failover: ${(failure as Error).message}\n`);
        continue;
      }
      cancelMs.push(performance.now() - killed);
      writer.append({ sequence, kind: 'exit', content: null, isFinal: true });
      await writer.ended;
      const events = await lastValueFrom(fromRunStore(probe, runId).pipe(toArray()));
      if (events.some((event, index) => event.sequence !== index) || events.length !== sequence + 1) {
        throw new Error('sequences lost or repeated across the failover');
      }
    } finally {
      await store.close();
      await probe.close();
      await redis.stop();
    }
  }
  if (cancelMs.length === 0) throw new Error(`every failover ended with RUN_STORE_FAILED (${typedFailures})`);
  return { cancelMs };
}
