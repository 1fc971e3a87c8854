import { setTimeout as sleep } from 'node:timers/promises';
import { filter, firstValueFrom, map } from 'rxjs';
import { RedisRunStore } from '../src/redis/index.js';
import { fromRunStore } from '../src/runs/follow-run.js';
// Zombie-aware, as in the cancel benchmark.
import { processGroupAlive } from '../src/sources/exec/process-group.js';
import { exec } from '../src/sources/exec.js';
import { RunRegistry } from '../src/web/run-registry.js';
import { startWebServer } from '../src/web/start-web-server.js';
import type { RunResult } from './bench-result.js';
import { startBenchRedis } from './redis-server.js';

const TOKEN = 'a-bench-token-shared-by-both-servers';

/**
 * `redis-web-cancel`: two `sluice/web` servers on one Redis (each with its own registry and
 * connections, as two machines would have); the first runs `script` (which prints `pid <leader>`),
 * and a `DELETE /runs/:id` sent to the *second* is measured until no process of the group runs,
 * polling every millisecond; `reps` times, after one unmeasured round (connections, scripts).
 */
export async function measureRedisWebCancel(script: string, reps: number): Promise<RunResult> {
  const redis = await startBenchRedis();
  const server = async () => {
    const store = new RedisRunStore({ url: redis.url });
    const registry = new RunRegistry({ store, logDir: false });
    return { store, registry, web: await startWebServer({ registry, token: TOKEN }) };
  };
  const owner = await server();
  const other = await server();
  try {
    const cancelMs: number[] = [];
    for (let rep = -1; rep < reps; rep += 1) {
      const run = owner.registry.start(exec('sh', [script]), { command: 'group-term' });
      const pgid = await firstValueFrom(
        fromRunStore(owner.store, run.id).pipe(
          map((event) => (event.kind === 'stdout' ? /^pid (\d+)/.exec(String(event.content)) : null)),
          filter((match) => match !== null),
          map((match) => Number(match[1])),
        ),
      );
      const started = performance.now();
      const answer = await fetch(`${other.web.origin}/runs/${run.id}`, {
        method: 'DELETE',
        headers: { 'x-sluice-token': TOKEN, origin: other.web.origin },
      });
      if (answer.status !== 204) throw new Error(`DELETE answered ${answer.status}`);
      while (processGroupAlive(pgid)) {
        if (performance.now() - started > 10_000) throw new Error(`process group ${pgid} still running`);
        await sleep(1);
      }
      if (rep >= 0) cancelMs.push(performance.now() - started);
    }
    return { cancelMs };
  } finally {
    for (const { web, registry, store } of [owner, other]) {
      await web.close();
      await registry.close();
      await store.close();
    }
    await redis.stop();
  }
}
