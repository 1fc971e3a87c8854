import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisRunStore } from '../../src/redis/redis-run-store.js';
import type { SseMessage } from '../../src/runs/sse/sse-parser.js';
import { exec } from '../../src/sources/exec.js';
import { RunRegistry } from '../../src/web/run-registry.js';
import { startWebServer, type WebServer } from '../../src/web/start-web-server.js';
import { fixture, groupGone, pollUntil, processAlive, processesWithTag } from '../support/processes.js';
import { readSse } from '../support/read-sse.js';
import { redisForSuite, redisServerPath } from '../support/redis-server.js';

const ticker = fixture('redis-ticker.py');

const TOKEN = 'a-token-shared-by-both-servers';

/** One web server of the pair: its own registry and its own connections to the shared Redis. */
interface Instance {
  readonly registry: RunRegistry;
  readonly server: WebServer;
  readonly store: RedisRunStore;
}

const sequences = (messages: SseMessage[]) =>
  messages
    .filter((message) => message.lastEventId !== '' && message.event !== 'failure')
    .map((m) => Number(m.lastEventId));

describe.skipIf(redisServerPath === undefined)('sluice/web: two servers sharing one Redis', () => {
  const redis = redisForSuite();
  const instances: Instance[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'sluice-shared-'));
  const instance = async (): Promise<Instance> => {
    const store = new RedisRunStore({ url: redis.url, blockMs: 200 });
    const registry = new RunRegistry({ store, logDir: scratch });
    const server = await startWebServer({ registry, token: TOKEN });
    const made = { registry, server, store };
    instances.push(made);
    return made;
  };
  const auth = { 'x-sluice-token': TOKEN };
  afterAll(async () => {
    for (const { server, registry, store } of instances) {
      await server.close();
      await registry.close();
      await store.close();
    }
    rmSync(scratch, { recursive: true, force: true });
  });

  it('a viewer that reconnects to the other server with Last-Event-ID resumes exactly: every sequence once', async () => {
    const [a, b] = [await instance(), await instance()];
    const gate = join(scratch, `gate-${randomBytes(3).toString('hex')}`);
    const run = a.registry.start(
      exec('sh', ['-c', 'seq 1 500; while [ ! -e "$1" ]; do sleep 0.02; done; seq 501 1000', 'sh', gate], {
        reject: false,
      }),
      { command: 'seq to a thousand, in two parts' },
    );
    // B has never heard of the run but shows it from the store, with the command A gave it — once
    // A's writer has opened the run there (start() returns before that round trip).
    const pageOfB = () => fetch(`${b.server.origin}/runs/${run.id}`, { headers: auth });
    await expect.poll(async () => (await pageOfB()).status, { timeout: 10_000 }).toBe(200);
    expect(await (await pageOfB()).text()).toContain('seq to a thousand, in two parts');

    const seen: number[] = [];
    let last: number | undefined;
    const servers = [a, b, a, b];
    for (const [index, { server }] of servers.entries()) {
      if (index === 2) writeFileSync(gate, ''); // the rest is written while viewers come and go
      const headers = last === undefined ? auth : { ...auth, 'last-event-id': String(last) };
      const { status, messages } = await readSse(
        `${server.origin}/runs/${run.id}/events`,
        headers,
        (got) => index < servers.length - 1 && sequences(got).length >= 150,
      );
      expect(status).toBe(200);
      // A viewer that leaves after 150 events (one network read may have brought more of them).
      const got = sequences(messages);
      seen.push(...(index < servers.length - 1 ? got.slice(0, 150) : got));
      last = seen.at(-1);
    }
    expect(seen).toEqual(Array.from({ length: 1001 }, (_, sequence) => sequence)); // 1000 lines + exit
    // After the final event, either server answers 204 (an EventSource stops there).
    for (const { server } of [a, b]) {
      const after = await fetch(`${server.origin}/runs/${run.id}/events`, {
        headers: { ...auth, 'last-event-id': '1000' },
      });
      expect(after.status).toBe(204);
    }
    // The download on B: what Redis still holds of the run (all of it here), in order.
    const download = await fetch(`${b.server.origin}/runs/${run.id}/log`, { headers: auth });
    expect(download.status).toBe(200);
    expect((await download.text()).split('\n').filter(Boolean)).toEqual(
      Array.from({ length: 1000 }, (_, index) => String(index + 1)),
    );
  });

  it("DELETE on the server that does not run the process kills it at once; both servers' viewers see who", async () => {
    const [a, b] = [await instance(), await instance()];
    const tag = `shared-cancel-${randomBytes(4).toString('hex')}`;
    const run = a.registry.start(exec('python3', [ticker, '100000', '0.01', tag]), { command: 'ticker' });
    expect(await pollUntil(() => processesWithTag(tag).length === 1, 20_000)).toBe(true);
    const [pid] = processesWithTag(tag) as [number];
    // B knows the run only from the store, once A's writer has opened it there (start() returns
    // before that round trip): a viewer of B's before then would get 404.
    const pageOfB = () => fetch(`${b.server.origin}/runs/${run.id}`, { headers: auth });
    await expect.poll(async () => (await pageOfB()).status, { timeout: 10_000 }).toBe(200);
    const viewers = [a, b].map(({ server }) => readSse(`${server.origin}/runs/${run.id}/events`, auth));
    expect(await pollUntil(() => run.viewers === 1, 10_000)).toBe(true);

    const started = performance.now();
    const answer = await fetch(`${b.server.origin}/runs/${run.id}`, {
      method: 'DELETE',
      headers: { ...auth, origin: b.server.origin },
    });
    expect(answer.status).toBe(204);
    // Polled every millisecond, cheaply (one /proc file: the servers share this event loop). The
    // process group's only member is `python3` itself (exec starts it in a group of its own).
    while (processAlive(pid) && performance.now() - started < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const elapsed = performance.now() - started;
    console.log(`[shared-store] DELETE on the other server → process group gone: ${elapsed.toFixed(1)} ms`);
    expect(await groupGone(pid, 10_000)).toBe(true);
    // Generous here (a loaded machine's scheduling); the 100 ms target is `redis-web-cancel` in
    // `npm run bench`, over many rounds.
    expect(elapsed).toBeLessThan(2000);
    expect(processesWithTag(tag)).toEqual([]);

    for (const { status, messages } of await Promise.all(viewers)) {
      expect(status).toBe(200);
      const end = messages.at(-1);
      expect(end?.event).toBe('end');
      expect(JSON.parse(end?.data ?? '{}')).toMatchObject({ metadata: { reason: 'cancelled', by: 'page' } });
    }
    // A second DELETE, on either server: the run has ended.
    const again = await fetch(`${a.server.origin}/runs/${run.id}`, {
      method: 'DELETE',
      headers: { ...auth, origin: a.server.origin },
    });
    expect(again.status).toBe(409);
  });
});
