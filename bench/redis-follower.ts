// A follower in its own process: `tsx bench/redis-follower.ts <url | host:port,…> <runId> count|latency`
// (a `redis://` URL, or a Redis Cluster's startup nodes).
// Prints `ready`, waits for the run to exist, follows it with fromRunStore (sequences checked),
// and prints one JSON line: `{lines, lastNs}` (count) or `{latenciesUs}` (latency, one per line:
// its monotonic stamp → this handler).
import { RedisRunStore } from '../src/redis/index.js';
import { fromRunStore } from '../src/runs/follow-run.js';

const [url = '', runId = '', mode = 'count'] = process.argv.slice(2);
const WARMUP = 25;

async function main(): Promise<void> {
  const store = new RedisRunStore(url.startsWith('redis') ? { url } : { cluster: url.split(',') });
  await store.client.ping();
  process.stdout.write('ready\n');
  while ((await store.info(runId)) === undefined) await new Promise((resolve) => setTimeout(resolve, 2));
  let lines = 0;
  const latenciesUs: number[] = [];
  await new Promise<void>((resolve, reject) => {
    fromRunStore(store, runId).subscribe({
      next: (event) => {
        if (event.kind !== 'stdout') return;
        lines += 1;
        if (mode === 'latency' && lines > WARMUP) {
          latenciesUs.push(Number(process.hrtime.bigint() - BigInt(String(event.content).trim())) / 1000);
        }
      },
      error: reject,
      complete: resolve,
    });
  });
  const lastNs = process.hrtime.bigint().toString();
  await store.close();
  process.stdout.write(`${JSON.stringify(mode === 'latency' ? { latenciesUs } : { lines, lastNs })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
