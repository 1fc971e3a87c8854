import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastValueFrom } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisRunStore } from '../../src/redis/redis-run-store.js';
import { runSseEndpoint } from '../../src/runs/sse/run-sse-endpoint.js';
import type { SseMessage } from '../../src/runs/sse/sse-parser.js';
import { toRunStore } from '../../src/runs/to-run-store.js';
import { exec } from '../../src/sources/exec.js';
import { macrotask } from '../support/macrotask.js';
import { fixture } from '../support/processes.js';
import { readSse } from '../support/read-sse.js';
import { redisForSuite, redisServerPath } from '../support/redis-server.js';
import { needs } from '../support/system-tools.js';

const ticker = fixture('redis-ticker.py');

const ids = (messages: SseMessage[]) =>
  messages
    .filter((message) => message.event !== 'gap' && message.event !== 'failure')
    .map((message) => (JSON.parse(message.data) as { sequence: number }).sequence);

describe.skipIf(redisServerPath === undefined)('runSseEndpoint: SSE from any instance', () => {
  const redis = redisForSuite();
  const servers: Server[] = [];
  const stores: RedisRunStore[] = [];
  /** An instance serving SSE from the shared Redis; its store keeps the newest `maxEvents` events of a run. */
  const instance = async (maxEvents = 50) => {
    const store = new RedisRunStore({ url: redis.url, maxEvents, maxBatchEvents: 5, blockMs: 200 });
    stores.push(store);
    const endpoint = runSseEndpoint(store, { heartbeatMs: 0 });
    const server = createServer((req, res) => {
      const runId = /^\/runs\/([\w.:-]+)\/events/.exec(req.url ?? '')?.[1];
      if (runId === undefined) res.writeHead(404).end();
      else endpoint.serve(runId, req, res);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { store, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  };
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    for (const store of stores) await store.close();
  });

  it.skipIf(!needs('python3'))(
    'a viewer resumes exactly on another instance, and DELETE there cancels the run on the owner',
    async () => {
      // History kept whole: a viewer that a loaded machine lets arrive late still starts at 0.
      const owner = await instance(100_000);
      const [a, b] = [await instance(100_000), await instance(100_000)];
      const runId = `sse-${randomUUID()}`;
      const run = lastValueFrom(
        exec('python3', [ticker, '100000', '0.01']).pipe(toRunStore(owner.store, runId)),
      );
      await expect
        .poll(async () => (await owner.store.info(runId))?.next ?? 0, { timeout: 20_000 })
        .toBeGreaterThan(0);
      const first = await readSse(
        `${a.base}/runs/${runId}/events`,
        {},
        (messages) => ids(messages).length >= 5,
      );
      expect(first.status).toBe(200);
      const seen = ids(first.messages);
      expect(seen.slice(0, 5)).toEqual([0, 1, 2, 3, 4]);
      const last = seen.at(-1) as number;
      const second = await readSse(
        `${b.base}/runs/${runId}/events`,
        { 'last-event-id': String(last) },
        (messages) => ids(messages).length >= 5,
      );
      expect(ids(second.messages).slice(0, 5)).toEqual([1, 2, 3, 4, 5].map((n) => n + last));
      const cancelled = await fetch(`${b.base}/runs/${runId}/events`, { method: 'DELETE' });
      expect(cancelled.status).toBe(204);
      const end = await run;
      expect(end).toMatchObject({ kind: 'end', metadata: { reason: 'cancelled' }, isFinal: true });
      // a viewer arriving afterwards on either instance gets the end; after the final event: 204
      const tail = await readSse(`${a.base}/runs/${runId}/events`, {
        'last-event-id': String(end.sequence - 1),
      });
      expect(tail.messages.at(-1)?.event).toBe('end');
      expect(
        (
          await fetch(`${b.base}/runs/${runId}/events`, {
            headers: { 'last-event-id': String(end.sequence) },
          })
        ).status,
      ).toBe(204);
      expect((await fetch(`${b.base}/runs/${runId}/events`, { method: 'DELETE' })).status).toBe(409);
    },
  );

  it('trimmed history is a gap frame; unknown runs 404; past the end 204, ahead of a live run 400', async () => {
    const { store, base } = await instance();
    const runId = `sse-gap-${randomUUID()}`;
    const writer = store.openWriter(runId);
    for (let sequence = 0; sequence < 200; sequence += 1) {
      writer.append({ sequence, kind: 'stdout', content: `${sequence}\n`, isFinal: sequence === 199 });
      if (sequence % 5 === 4) await macrotask();
    }
    await writer.ended;
    const read = await readSse(`${base}/runs/${runId}/events`, { 'last-event-id': '9' });
    const gap = read.messages.find((message) => message.event === 'gap');
    expect(gap).toBeDefined();
    const { from, to } = JSON.parse(gap?.data ?? '{}') as { from: number; to: number };
    expect(from).toBe(10);
    expect(ids(read.messages)[0]).toBe(to + 1);
    expect(ids(read.messages).at(-1)).toBe(199);
    expect((await fetch(`${base}/runs/nope-${randomUUID()}/events`)).status).toBe(404);
    expect(
      (await fetch(`${base}/runs/${runId}/events`, { headers: { 'last-event-id': '500' } })).status,
    ).toBe(204);
    const live = `sse-live-${randomUUID()}`;
    const liveWriter = store.openWriter(live);
    liveWriter.append({ sequence: 0, kind: 'stdout', content: 'x\n', isFinal: false });
    await expect.poll(async () => (await store.info(live))?.next ?? 0).toBe(1);
    expect((await fetch(`${base}/runs/${live}/events`, { headers: { 'last-event-id': '5' } })).status).toBe(
      400,
    );
    liveWriter.append({ sequence: 1, kind: 'exit', content: null, isFinal: true });
    await liveWriter.ended;
  });
});
