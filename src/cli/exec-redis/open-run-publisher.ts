import { randomUUID } from 'node:crypto';
import type { MonoTypeOperatorFunction } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import type { RunStore } from '../../runs/run-store.js';
import { toRunStore } from '../../runs/to-run-store.js';
import type { CliStreams } from '../text-view.js';

/**
 * `sluice exec --redis <url> [--run-id <id>]`: the Redis run store, the run's id, an operator that
 * publishes the run there (labelled with the command) while the CLI shows it as usual, and
 * `close()` for the end. ioredis (and `sluice/redis`) is loaded here, only when `--redis` is
 * given. A run id the user did not choose is announced on stderr.
 *
 * @example
 * ```ts
 * const publisher = await openRunPublisher('redis://127.0.0.1:6379', 'build-7', 'make test', process);
 * events.pipe(publisher.operator);
 * ```
 */
export async function openRunPublisher<T extends ChunkEvent<unknown>>(
  url: string,
  runId: string | undefined,
  label: string,
  io: CliStreams,
): Promise<{
  store: RunStore;
  runId: string;
  operator: MonoTypeOperatorFunction<T>;
  close(): Promise<void>;
}> {
  const { RedisRunStore } = await import('../../redis/redis-run-store.js');
  const store = new RedisRunStore({ url });
  const id = runId ?? randomUUID();
  if (runId === undefined) io.stderr.write(`sluice: publishing as run ${id}\n`);
  return {
    store,
    runId: id,
    operator: toRunStore<T>(store, id, { label }),
    close: async () => {
      await new Promise((resolve) => setImmediate(resolve)); // a cancelled run's sentinel goes first
      await store.close();
    },
  };
}
