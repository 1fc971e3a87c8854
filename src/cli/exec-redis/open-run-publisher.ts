import { randomUUID } from 'node:crypto';
import type { MonoTypeOperatorFunction } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import { isSluiceError } from '../../core/errors/sluice-error.js';
import type { RedisRunStoreOptions } from '../../redis/redis-run-store.js';
import type { RunStore } from '../../runs/run-store.js';
import { toRunStore } from '../../runs/to-run-store.js';
import type { CliStreams } from '../text-view.js';

/** The exit code of `sluice exec --redis-strict` when publishing failed (`EX_TEMPFAIL`). */
export const REDIS_STRICT_EXIT_CODE = 75;

/**
 * `sluice exec --redis <url> [--run-id <id>]`: the Redis run store, the run's id, an operator that
 * publishes the run there (labelled with the command) while the CLI shows it as usual, and
 * `close()` for the end. ioredis (and `sluice/redis`) is loaded here, only when `--redis` is
 * given. A run id the user did not choose is announced on stderr.
 *
 * A store that fails mid-run (Redis died, or did not answer within the store's `failAfterMs`) does
 * not take the run with it: the command goes on and its output and exit code stand; the failure is
 * said on stderr once, and `failed()` tells it (`--redis-strict` then exits with
 * {@link REDIS_STRICT_EXIT_CODE}).
 *
 * @example
 * ```ts
 * const publisher = await openRunPublisher({ url: 'redis://127.0.0.1:6379' }, 'build-7', 'make test', process);
 * events.pipe(publisher.operator);
 * ```
 */
export async function openRunPublisher<T extends ChunkEvent<unknown>>(
  options: RedisRunStoreOptions,
  runId: string | undefined,
  label: string,
  io: CliStreams,
): Promise<{
  store: RunStore;
  runId: string;
  operator: MonoTypeOperatorFunction<T>;
  failed(): boolean;
  close(): Promise<void>;
}> {
  const { RedisRunStore } = await import('../../redis/redis-run-store.js');
  const store = new RedisRunStore({ ...options, failFast: true });
  const id = runId ?? randomUUID();
  if (runId === undefined) io.stderr.write(`sluice: publishing as run ${id}\n`);
  let failed = false;
  const onStoreFailure = (error: unknown) => {
    failed = true;
    const code = isSluiceError(error) ? `${error.code}: ` : '';
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`sluice: publishing run ${id} stopped (${code}${message}); the command goes on\n`);
  };
  return {
    store,
    runId: id,
    operator: toRunStore<T>(store, id, { label, onStoreFailure }),
    failed: () => failed,
    close: async () => {
      await new Promise((resolve) => setImmediate(resolve)); // a cancelled run's sentinel goes first
      await store.close();
    },
  };
}
