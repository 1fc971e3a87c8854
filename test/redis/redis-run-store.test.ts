import { lastValueFrom, tap } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { toAsyncIterable } from '../../src/adapters/to-async-iterable.js';
import { isOwnerLostError } from '../../src/core/errors/owner-lost-error.js';
import { RedisRunStore } from '../../src/redis/redis-run-store.js';
import { fromRunStore } from '../../src/runs/follow-run.js';
import { runStoreContract } from '../runs/run-store-contract.js';
import { macrotask } from '../support/macrotask.js';
import { pollUntil } from '../support/processes.js';
import { redisForSuite, redisServerPath } from '../support/redis-server.js';

let runs = 0;
describe.skipIf(redisServerPath === undefined)('RedisRunStore (a real redis-server)', () => {
  const redis = redisForSuite();

  runStoreContract({
    store: ({ maxEvents }) =>
      new RedisRunStore({ url: redis.url, maxEvents, blockMs: 200, maxBatchEvents: 5 }),
    runId: () => `run-${process.pid}-${++runs}`,
  });
});

describe.skipIf(redisServerPath === undefined)('RedisRunStore reads on demand', () => {
  const redis = redisForSuite();

  it('a consumer that stops pulling stops the XREADs; one that pulls again gets the rest in order', async () => {
    const store = new RedisRunStore({ url: redis.url, maxBatchEvents: 5, readCount: 1 });
    const writer = store.openWriter('demand');
    for (let sequence = 0; sequence < 2000; sequence += 1) {
      writer.append({ sequence, kind: 'stdout', content: `${sequence}\n`, isFinal: sequence === 1999 });
      if (sequence % 5 === 4) await macrotask();
    }
    await writer.ended;
    const xreads = async () => {
      const stats = await store.client.info('commandstats');
      return Number(/cmdstat_xread:calls=(\d+)/.exec(stats)?.[1] ?? 0);
    };
    const iterator = toAsyncIterable(fromRunStore(store, 'demand'), { bufferSize: 4 })[
      Symbol.asyncIterator
    ]();
    const first = await iterator.next();
    expect(first.value?.sequence).toBe(0);
    await expect.poll(xreads).toBeGreaterThan(0);
    const before = await xreads();
    await pollUntil(() => false, 300); // nobody pulls for a while: no read goes out
    expect(await xreads()).toBeLessThanOrEqual(before + 1);
    const sequences = [0];
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      sequences.push(next.value.sequence);
    expect(sequences).toEqual([...Array(2000).keys()]);
    expect(await xreads()).toBeGreaterThan(before + 300); // 5 events per entry, 1 entry per XREAD
    await store.close();
  });
});

describe.skipIf(redisServerPath === undefined)('RedisRunStore leases', () => {
  const redis = redisForSuite();

  it('an owner cut off past its lease is declared lost by a follower, and its later writes are refused', async () => {
    const owner = new RedisRunStore({ url: redis.url, leaseMs: 60_000 });
    const follower = new RedisRunStore({ url: redis.url, blockMs: 100 });
    const writer = owner.openWriter('partitioned');
    writer.append({ sequence: 0, kind: 'stdout', content: 'a\n', isFinal: false });
    await expect.poll(async () => (await follower.info('partitioned'))?.next).toBe(1);
    // what a partition looks like from Redis: the lease is not renewed and expires
    await follower.client.del('sluice:{partitioned}:lease');
    const events: unknown[] = [];
    const error = await lastValueFrom(
      fromRunStore(follower, 'partitioned').pipe(tap((event) => events.push(event))),
    ).catch((e: unknown) => e);
    expect(isOwnerLostError(error)).toBe(true);
    expect(events).toHaveLength(1);
    expect((await follower.info('partitioned'))?.failure?.code).toBe('OWNER_LOST');
    writer.append({ sequence: 1, kind: 'stdout', content: 'late\n', isFinal: false }); // the owner comes back
    const refused = await writer.ended.catch((e: unknown) => e);
    expect(isOwnerLostError(refused)).toBe(true);
    expect((await follower.info('partitioned'))?.next).toBe(1); // nothing written after the verdict
    await owner.close();
    await follower.close();
  });

  it("lastRecord gives the lease's verdict: a run whose owner's lease expired ends with OWNER_LOST", async () => {
    const owner = new RedisRunStore({ url: redis.url, leaseMs: 3_000 });
    const reader = new RedisRunStore({ url: redis.url });
    const writer = owner.openWriter('last-lost');
    writer.append({ sequence: 0, kind: 'stdout', content: 'a\n', isFinal: false });
    await expect.poll(async () => (await reader.info('last-lost'))?.next).toBe(1);
    expect(await reader.lastRecord('last-lost')).toMatchObject({ type: 'event', event: { sequence: 0 } });
    expect((await reader.info('last-lost'))?.state).toBe('running'); // a live lease: no verdict
    await reader.client.del('sluice:{last-lost}:lease'); // the owner stopped renewing it
    expect(await reader.lastRecord('last-lost')).toMatchObject({
      type: 'failure',
      failure: { code: 'OWNER_LOST' },
    });
    expect((await reader.info('last-lost'))?.state).toBe('ended');
    expect(isOwnerLostError(await writer.ended.catch((e: unknown) => e))).toBe(true);
    await owner.close();
    await reader.close();
  });

  it('runIds refuses a prefix that is not a string, naming it', async () => {
    const store = new RedisRunStore({ url: redis.url });
    await expect(store.runIds(7 as unknown as string)).rejects.toThrow(
      new TypeError('Expected the `prefix` argument to be a string, got `7` (number)'),
    );
    await store.close();
  });

  it('followers that time out together when the owner is lost: one declares it, every one ends with OWNER_LOST', async () => {
    const owner = new RedisRunStore({ url: redis.url, leaseMs: 60_000 });
    const followers = Array.from({ length: 6 }, () => new RedisRunStore({ url: redis.url, blockMs: 100 }));
    const writer = owner.openWriter('lost-together');
    writer.append({ sequence: 0, kind: 'stdout', content: 'a\n', isFinal: false });
    await expect.poll(async () => (await followers[0]?.info('lost-together'))?.next).toBe(1);
    // All blocked after sequence 0 at once: their reads time out together, and all but one find
    // the run already ended by another's verdict.
    const ends = followers.map((follower) =>
      lastValueFrom(fromRunStore(follower, 'lost-together')).then(
        () => 'completed',
        (error: unknown) => (isOwnerLostError(error) ? 'OWNER_LOST' : String(error)),
      ),
    );
    await owner.client.del('sluice:{lost-together}:lease');
    expect(await Promise.all(ends)).toEqual(followers.map(() => 'OWNER_LOST'));
    writer.close();
    await owner.close();
    for (const follower of followers) await follower.close();
  });

  it('a cancel that lands before the owner has subscribed to the run still reaches it at once', async () => {
    // A lease of a minute: the heartbeat (which also sees a missed cancel) comes only after 20 s.
    const owner = new RedisRunStore({ url: redis.url, leaseMs: 60_000 });
    const other = new RedisRunStore({ url: redis.url });
    await other.client.ping();
    const writer = owner.openWriter('early-cancel'); // OPEN goes out; the SUBSCRIBE needs a new connection
    const heard = new Promise<{ reason: string; by: unknown }>((resolve) =>
      writer.onCancel((reason, details) => resolve({ reason, by: details.by })),
    );
    while ((await other.info('early-cancel')) === undefined) {} // the run exists: cancel it at once
    const started = performance.now();
    expect(await other.cancel('early-cancel', 'cancelled', { by: 'test' })).toBe(true);
    const deadline = new Promise<'none'>((resolve) => {
      const timer = setTimeout(() => resolve('none'), 10_000);
      void heard.then(() => clearTimeout(timer));
    });
    expect(await Promise.race([heard, deadline])).toEqual({ reason: 'cancelled', by: 'test' });
    console.log(
      `[redis] a cancel before the owner's SUBSCRIBE reached it in ${(performance.now() - started).toFixed(1)} ms`,
    );
    writer.close();
    await owner.close();
    await other.close();
  });
});
