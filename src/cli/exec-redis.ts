import { randomUUID } from 'node:crypto';
import type { MonoTypeOperatorFunction, Observable } from 'rxjs';
import { onChunk } from '../adapters/on-chunk.js';
import type { ChunkEvent } from '../core/chunk.js';
import { isSluiceError } from '../core/errors/sluice-error.js';
import type { RedisRunStoreOptions } from '../redis/redis-run-store.js';
import type { RunStore } from '../runs/run-store.js';
import { toRunStore } from '../runs/to-run-store.js';
import { quoteCommand } from '../sources/exec/quote-command.js';
import { exec } from '../sources/exec.js';
import { cliExecOptions, cliStallTimeout, markTerminal } from './cli-exec-options.js';
import { publishInterruptible, stopOnClosedOutput } from './cli-interruption.js';
import { writeFailure } from './exec-json.js';
import type { CliExecCommand } from './parse-args.js';
import { RunFrameWriter } from './run-frame-writer.js';
import type { CliStreams } from './text-view.js';

/**
 * `sluice exec --redis <url> --json`: runs the command, publishes it to Redis (as `sluice exec
 * --redis` does) and writes the hostcall wire frames of `sluice exec --json` on stdout — the
 * frames `sluice follow --json` writes for the same run, through the same {@link RunFrameWriter}.
 * The exit status is the command's; with `--redis-strict`, 75 when publishing failed.
 */
export async function execAsJsonToRedis(
  run: CliExecCommand,
  io: CliStreams,
  signal?: AbortSignal,
): Promise<number> {
  const store = run.redisStore;
  if (store === undefined) throw new TypeError('execAsJsonToRedis needs `--redis`');
  const label = quoteCommand(run.file, run.args);
  const publisher = await openRunPublisher<ChunkEvent<unknown>>(store, run.runId, label, io);
  const frames = new RunFrameWriter(io, run.wire, run.callId);
  const options = { reject: false, ...cliExecOptions(run, signal, io, { statusLine: false }) };
  const events = (exec(run.file, run.args, options) as Observable<ChunkEvent<unknown>>).pipe(
    markTerminal(options),
    cliStallTimeout(run, io),
    publishInterruptible(publisher.operator, signal),
  );
  let next = 0;
  try {
    await onChunk(
      events,
      (event) => {
        next = event.sequence + 1;
        return frames.event(event);
      },
      { bufferSize: run.bufferSize, ...stopOnClosedOutput(signal) },
    );
    return run.redisStrict && publisher.failed() ? REDIS_STRICT_EXIT_CODE : frames.code;
  } catch (error) {
    return await writeFailure(error, next, (outcome) => frames.send(outcome), signal);
  } finally {
    await publisher.close();
  }
}

/** The exit code of `sluice exec --redis-strict` when publishing failed (`EX_TEMPFAIL`). */
export const REDIS_STRICT_EXIT_CODE = 75;

/**
 * `sluice exec --redis <url> [--run-id <id>]`: the store, the run's id (announced on stderr unless
 * the user chose it), an operator that publishes the run while the CLI shows it, and `close()`.
 * A store that fails mid-run does not take the run with it: the failure is said once on stderr,
 * and `failed()` tells it for `--redis-strict` (docs/scaling.md, "What fails when").
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
  const { RedisRunStore } = await import('../redis/redis-run-store.js');
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
