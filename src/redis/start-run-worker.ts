import type { Redis } from 'ioredis';
import type { Observable, Subscription } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { OwnerLostError } from '../core/errors/owner-lost-error.js';
import { optionError } from '../core/option-error.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { toRunFailure } from '../runs/run-failure.js';
import { toRunStore } from '../runs/to-run-store.js';
import { exec } from '../sources/exec.js';
import { evalScript } from './eval-script.js';
import type { RedisRunStore } from './redis-run-store.js';
import type { RunJob } from './run-job.js';
import { runJobSchema } from './run-job-schema.js';
import { runKeys } from './run-keys.js';
import { OWNER_LOST } from './run-scripts.js';
import { queueKey } from './submit-run.js';

/**
 * Options of {@link startRunWorker}.
 *
 * @example
 * ```ts
 * import { startRunWorker, type RunWorkerOptions } from 'sluice/redis';
 * const options: RunWorkerOptions = { concurrency: 4, claimIdleMs: 30_000 };
 * const worker = startRunWorker(store, options);
 * ```
 */
export interface RunWorkerOptions {
  /** Runs at once at most. Default `1`. */
  readonly concurrency?: number;
  /** The consumer group. Default `'workers'`. */
  readonly group?: string;
  /** A queue entry nobody has touched for this long is reclaimed (its worker died), in ms. Default `2 × leaseMs`. */
  readonly claimIdleMs?: number;
  /** Told what the worker does: `started`, `finished`, `reclaimed`, `skipped`. Default: nothing. */
  readonly log?: (message: string) => void;
}

/**
 * A running worker ({@link startRunWorker}).
 *
 * @example
 * ```ts
 * process.once('SIGTERM', () => worker.stop({ graceMs: 30_000 }));
 * await worker.stopped;
 * ```
 */
export interface RunWorker {
  /** Runs in progress now. */
  readonly running: number;
  /** Settles when the worker has stopped (after {@link stop}) — or rejects if it failed. */
  readonly stopped: Promise<void>;
  /**
   * Stops taking jobs, lets running ones finish for `graceMs` (default `30_000`), then cancels
   * the rest (their runs end with `metadata.reason: 'worker-stopped'`), and resolves when all
   * have ended and been acknowledged.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
}

/**
 * Runs the commands submitted with {@link submitRun}: a member of the consumer group `group` on
 * the run queue. It takes jobs (`XREADGROUP … COUNT <free slots>`) up to `concurrency` at once,
 * runs each through `exec` (`reject: false`: a non-zero exit is the run's final `exit` event) and
 * publishes it with `toRunStore` as the job's run, then acknowledges the queue entry.
 *
 * **A worker that dies** (`kill -9`, a lost machine) stops renewing its runs' leases and its
 * queue entries. Another worker reclaims such entries (`XAUTOCLAIM` after `claimIdleMs`) and
 * applies the policy: a job whose run **never started** is run again (nothing of it happened); a
 * job whose run **had started** is **not** retried — a command may have had side effects — its
 * run ends with `OWNER_LOST` (followers get it), and the entry is acknowledged. Resubmit it if
 * it is safe to repeat.
 *
 * @example
 * ```ts
 * import { RedisRunStore, startRunWorker } from 'sluice/redis';
 * const store = new RedisRunStore({ url: process.env.REDIS_URL! });
 * const worker = startRunWorker(store, { concurrency: 4, log: console.error });
 * process.once('SIGTERM', () => worker.stop());
 * ```
 */
export function startRunWorker(store: RedisRunStore, options: RunWorkerOptions = {}): RunWorker {
  if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
  rejectUnknownOptions(options, ['concurrency', 'group', 'claimIdleMs', 'log']);
  const { leaseMs, blockMs, scheduler, retainMs } = store.context;
  const concurrency = options.concurrency ?? 1;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw optionError('concurrency', 'a positive integer', concurrency);
  }
  const group = options.group ?? 'workers';
  if (typeof group !== 'string' || !/^[A-Za-z0-9._:-]{1,100}$/.test(group)) {
    throw optionError('group', 'a group name (letters, digits, `.`, `_`, `:` or `-`)', group);
  }
  const claimIdleMs = options.claimIdleMs ?? 2 * leaseMs;
  if (!Number.isSafeInteger(claimIdleMs) || claimIdleMs < 1) {
    throw optionError('claimIdleMs', 'a positive integer', claimIdleMs);
  }
  const log = options.log ?? (() => {});
  if (typeof log !== 'function') throw optionError('log', 'a function', log);

  const client = store.client;
  const queue = queueKey(store.prefix);
  const name = store.owner;
  const running = new Map<string, { runId: string; subscription: Subscription; ended: Promise<void> }>();
  let stopping = false;
  let blocking: Redis | undefined;
  let wakeSlot: (() => void) | undefined;

  // Keep our entries' idle time low while we run them, so only a dead worker's are reclaimed.
  const every = Math.max(1, Math.floor(claimIdleMs / 3));
  const refresh = scheduler.schedule(function () {
    if (running.size > 0) {
      client.xclaim(queue, group, name, 0, ...running.keys(), 'JUSTID').catch(() => {});
    }
    this.schedule(undefined, every);
  }, every);

  const acknowledge = async (entryId: string) => {
    await client.xack(queue, group, entryId);
    await client.xdel(queue, entryId);
  };

  const start = (entryId: string, job: RunJob) => {
    log(`started run ${job.runId}: ${[job.file, ...job.args].join(' ')}`);
    let settle: () => void = () => {};
    const ended = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const finish = (how: string) => {
      log(`finished run ${job.runId}: ${how}`);
      acknowledge(entryId)
        .catch(() => {}) // unacknowledged: reclaimed later, and found ended
        .finally(() => {
          running.delete(entryId);
          settle();
          wakeSlot?.();
        });
    };
    const events: Observable<ChunkEvent<unknown>> = exec(job.file, job.args, {
      reject: false,
      ...(job.cwd === undefined ? {} : { cwd: job.cwd }),
      ...(job.timeoutMs === undefined ? {} : { timeoutMs: job.timeoutMs }),
    });
    const subscription = events
      .pipe(toRunStore(store, job.runId, { label: [job.file, ...job.args].join(' ') }))
      .subscribe({
        next: (event) => {
          if (!event.isFinal) return;
          const content = event.content as { exitCode?: number | null; signal?: string | null } | null;
          if (event.kind === 'exit') finish(`exit ${content?.exitCode ?? content?.signal}`);
          else finish(String(event.metadata?.reason ?? event.kind));
        },
        error: (error: unknown) => finish(`failed: ${(error as Error).message}`),
      });
    running.set(entryId, { runId: job.runId, subscription, ended });
  };

  const jobOf = async (runId: string): Promise<{ state: string | null; job: RunJob | undefined }> => {
    const [state, raw] = await client.hmget(runKeys(store.prefix, runId).meta, 'state', 'job');
    let job: RunJob | undefined;
    try {
      const parsed = runJobSchema.safeParse(JSON.parse(raw ?? 'null'));
      job = parsed.success ? parsed.data : undefined;
    } catch {
      job = undefined;
    }
    return { state: state ?? null, job };
  };

  const take = async (entryId: string, runId: string, reclaimed: boolean) => {
    const { state, job } = await jobOf(runId);
    if (state === 'queued' && job !== undefined && job.runId === runId) {
      if (reclaimed) log(`reclaimed run ${runId}: it never started, running it`);
      start(entryId, job);
      return;
    }
    if (state === 'running' && reclaimed) {
      const keys = runKeys(store.prefix, runId);
      const payload = JSON.stringify(toRunFailure(new OwnerLostError({ runId, owner: undefined })));
      const verdict = await evalScript(
        client,
        OWNER_LOST,
        [keys.meta, keys.events, keys.lease],
        [payload, retainMs],
      );
      if (verdict === 'ALIVE') return; // its owner still renews the lease: not ours to end
      log(`reclaimed run ${runId}: its worker died mid-run, ended with OWNER_LOST`);
    } else {
      log(`skipped run ${runId}: ${state ?? 'gone'}`);
    }
    await acknowledge(entryId);
  };

  const loop = async () => {
    try {
      await client.xgroup('CREATE', queue, group, '0', 'MKSTREAM');
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('BUSYGROUP')) throw error;
    }
    blocking = store.duplicate();
    while (!stopping) {
      let free = concurrency - running.size;
      if (free <= 0) {
        await new Promise<void>((resolve) => {
          wakeSlot = resolve;
        });
        wakeSlot = undefined;
        continue;
      }
      const claim = (await client.xautoclaim(queue, group, name, claimIdleMs, '0-0', 'COUNT', free)) as [
        string,
        [string, string[]][],
      ];
      for (const [entryId, fields] of claim[1] ?? []) {
        if (stopping) break;
        await take(entryId, fields[1] ?? '', true);
      }
      free = concurrency - running.size;
      if (free <= 0 || stopping) continue;
      const reply = (await blocking
        .xreadgroup('GROUP', group, name, 'COUNT', free, 'BLOCK', blockMs, 'STREAMS', queue, '>')
        .catch((error: unknown) => {
          if (stopping) return null;
          throw error;
        })) as [string, [string, string[]][]][] | null;
      for (const [entryId, fields] of reply?.[0]?.[1] ?? []) {
        await take(entryId, fields[1] ?? '', false);
      }
    }
  };

  let stopResolve: () => void = () => {};
  let stopReject: (error: unknown) => void = () => {};
  const stopped = new Promise<void>((resolve, reject) => {
    stopResolve = resolve;
    stopReject = reject;
  });
  stopped.catch(() => {});
  const looping = loop().catch((error: unknown) => {
    if (!stopping) stopReject(error);
  });

  return {
    get running() {
      return running.size;
    },
    stopped,
    stop: async ({ graceMs = 30_000 } = {}) => {
      if (!stopping) {
        stopping = true;
        blocking?.disconnect();
        wakeSlot?.();
        await looping;
        const all = () => Promise.all([...running.values()].map((run) => run.ended));
        let graceTimer: Subscription | undefined;
        const grace = new Promise<void>((resolve) => {
          graceTimer = scheduler.schedule(resolve, graceMs);
        });
        await Promise.race([all(), grace]);
        graceTimer?.unsubscribe();
        for (const run of running.values()) {
          log(`cancelling run ${run.runId}: the worker is stopping`);
          await store.cancel(run.runId, 'worker-stopped').catch(() => run.subscription.unsubscribe());
        }
        await all();
        refresh.unsubscribe();
        stopResolve();
      }
      return stopped;
    },
  };
}
