import { randomUUID } from 'node:crypto';
import type { MonoTypeOperatorFunction } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import { toRunStore } from '../../runs/to-run-store.js';
import type { CliStreams } from '../text-view.js';

/**
 * `sluice exec --redis <url> [--run-id <id>]`: an operator that publishes the run to Redis while
 * the CLI shows it as usual, and `close()` for the end. ioredis (and `sluice/redis`) is loaded
 * here, only when `--redis` is given. A run id the user did not choose is announced on stderr.
 *
 * @example
 * ```ts
 * const publisher = await openRunPublisher('redis://127.0.0.1:6379', 'build-7', process);
 * events.pipe(publisher.operator);
 * ```
 */
export async function openRunPublisher<T extends ChunkEvent<unknown>>(
  url: string,
  runId: string | undefined,
  io: CliStreams,
): Promise<{ operator: MonoTypeOperatorFunction<T>; close(): Promise<void> }> {
  const { RedisRunStore } = await import('../../redis/redis-run-store.js');
  const store = new RedisRunStore({ url });
  const id = runId ?? randomUUID();
  if (runId === undefined) io.stderr.write(`sluice: publishing as run ${id}\n`);
  return {
    operator: toRunStore<T>(store, id),
    close: async () => {
      await new Promise((resolve) => setImmediate(resolve)); // a cancelled run's sentinel goes first
      await store.close();
    },
  };
}
