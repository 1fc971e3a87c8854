import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { RedisRunStore } from '../../src/redis/redis-run-store.js';
import type { RunRecord } from '../../src/runs/run-record.js';
import { chunk } from '../support/chunk.js';
import { macrotask } from '../support/macrotask.js';
import { redisForSuite, redisServerPath } from '../support/redis-server.js';

const line = (sequence: number, last: number) =>
  chunk(sequence, `${String(sequence).padStart(6, '0')} ${'x'.repeat(53)}\n`, sequence === last);

async function write(store: RedisRunStore, runId: string, count: number): Promise<void> {
  const writer = store.openWriter(runId);
  for (let sequence = 0; sequence < count; sequence += 1) {
    writer.append(line(sequence, count - 1));
    if (sequence % 100 === 99) await macrotask();
  }
  await writer.ended;
}

describe.skipIf(redisServerPath === undefined)('RedisRunStore retention by bytes and by count', () => {
  const redis = redisForSuite();

  it('keeps the newest maxBytes of events (whole entries), and says what it trimmed with a gap', async () => {
    const store = new RedisRunStore({ url: redis.url, maxBytes: 100_000, maxBatchEvents: 50 });
    await write(store, 'by-bytes', 5000);
    const info = await store.info('by-bytes');
    expect(info?.next).toBe(5000);
    // ~120 bytes of JSON per event: 100 000 bytes hold ~800 of them, never more.
    const kept = 5000 - (info?.oldest ?? 0);
    expect(kept).toBeGreaterThan(600);
    expect(kept).toBeLessThan(900);
    const [bytes] = await store.client.hmget('sluice:{by-bytes}:meta', 'bytes');
    const entries = (await store.client.xrange('sluice:{by-bytes}:events', '-', '+')) as [string, string[]][];
    const stored = entries.reduce((sum, [, fields]) => sum + Buffer.byteLength(fields[3] ?? ''), 0);
    expect(Number(bytes)).toBe(stored);
    expect(stored).toBeLessThanOrEqual(100_000);
    const records = await lastValueFrom(store.read('by-bytes').pipe(toArray()));
    expect(records[0]).toEqual({ type: 'gap', from: 0, to: (info?.oldest ?? 0) - 1 });
    const sequences = records.flatMap((record: RunRecord) =>
      record.type === 'events' ? record.events.map((event) => event.sequence) : [],
    );
    expect(sequences).toEqual([...Array(kept).keys()].map((index) => (info?.oldest ?? 0) + index));
    await store.close();
  });

  it('keeps the newest maxEvents events when the bytes allow more', async () => {
    const store = new RedisRunStore({ url: redis.url, maxEvents: 1000, maxBatchEvents: 10 });
    await write(store, 'by-count', 3000);
    const info = await store.info('by-count');
    expect(info?.oldest).toBeGreaterThan(1990);
    expect(info?.oldest).toBeLessThanOrEqual(2000);
    await store.close();
  });

  it('by default keeps a whole 200 000-line log', async () => {
    const store = new RedisRunStore({ url: redis.url });
    await write(store, 'whole', 200_000);
    expect(await store.info('whole')).toMatchObject({ next: 200_000, oldest: 0, state: 'ended' });
    await store.close();
  }, 60_000);

  it('refuses a maxBytes that is not a positive integer, naming it', () => {
    expect(() => new RedisRunStore({ url: redis.url, maxBytes: 0 })).toThrow(
      'Expected the `maxBytes` option to be a positive integer, got `0` (number)',
    );
  });
});
