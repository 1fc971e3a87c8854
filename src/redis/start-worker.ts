import type { Observable, SchedulerLike, Subscription } from 'rxjs';
import { z } from 'zod';
import type { ChunkEvent } from '../core/chunk.js';
import { deferred } from '../core/deferred.js';
import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
import { optionError } from '../core/option-error.js';
import { readInteger } from '../core/read-integer.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { toRunStore } from '../runs/to-run-store.js';
import { exec } from '../sources/exec.js';
import type { RedisClient } from './redis-run-context.js';
import type { RedisRunStore, RedisRunWriterOptions } from './redis-run-store.js';
import { runKeys } from './run-keys.js';
import { judgeOwner } from './run-scripts.js';
import type { Job } from './submit-job.js';
import { queueKey } from './submit-job.js';
import { endWorkerRunSpan, startWorkerRunSpan } from './worker-run-span.js';

/** Options of {@link startWorker}. */
export interface WorkerOptions {
  /** Runs at once at most. Default `1`. */
  readonly concurrency?: number;
  /** The consumer group. Default `'workers'`. */
  readonly group?: string;
  /** A queue entry nobody has touched for this long is reclaimed (its worker died), in ms. Default `2 × leaseMs`. */
  readonly claimIdleMs?: number;
  /** Told what the worker does: `started`, `finished`, `reclaimed`, `skipped`. Default: nothing. */
  readonly log?: (message: string) => void;
}

/** A running worker ({@link startWorker}). */
export interface Worker {
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
 * Runs the commands submitted with {@link submitJob} as a member of the consumer group `group`:
 * each through `exec` (`reject: false`), published with `toRunStore` as the job's run, up to
 * `concurrency` at once. A dead worker's jobs are reclaimed after `claimIdleMs`: run again if their
 * run never started, ended with `OWNER_LOST` if it had (docs/scaling.md, "The worker pool").
 *
 * @example
 * ```ts
 * import { RedisRunStore, startWorker } from 'sluice/redis';
 * const store = new RedisRunStore({ url: process.env.REDIS_URL! });
 * const worker = startWorker(store, { concurrency: 4, log: console.error });
 * process.once('SIGTERM', () => worker.stop());
 * ```
 */
export function startWorker(store: RedisRunStore, options: WorkerOptions = {}): Worker {
  const pool = new WorkerPool(store, readWorkerOptions(store, options));
  return {
    get running() {
      return pool.running.size;
    },
    stopped: pool.stopped,
    stop: (stopOptions) => pool.stop(stopOptions?.graceMs ?? 30_000),
  };
}

interface WorkerSettings {
  readonly concurrency: number;
  readonly group: string;
  readonly claimIdleMs: number;
  readonly log: (message: string) => void;
}

/** Step 1: the options, checked and defaulted before anything starts. */
function readWorkerOptions(store: RedisRunStore, options: WorkerOptions): WorkerSettings {
  if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
  rejectUnknownOptions(options, ['concurrency', 'group', 'claimIdleMs', 'log']);
  const concurrency = readInteger(options, 'concurrency', 1, { min: 1 });
  const group = options.group ?? 'workers';
  if (typeof group !== 'string' || !/^[A-Za-z0-9._:-]{1,100}$/.test(group)) {
    throw optionError('group', 'a group name (letters, digits, `.`, `_`, `:` or `-`)', group);
  }
  const claimIdleMs = readInteger(options, 'claimIdleMs', 2 * store.context.leaseMs, { min: 1 });
  const log = options.log ?? (() => {});
  if (typeof log !== 'function') throw optionError('log', 'a function', log);
  return { concurrency, group, claimIdleMs, log };
}

interface RunningJob {
  readonly runId: string;
  readonly subscription: Subscription;
  readonly ended: Promise<void>;
  /** Ends the job's span, logs and acknowledges it, once: the stream's end, or a forced one. */
  readonly finish: (how: string, end: ChunkEvent<unknown> | { error: unknown }) => void;
}

type QueueEntries = [entryId: string, fields: string[]][];

/** One worker: its running jobs by queue entry, its read loop, and its stop. */
class WorkerPool {
  readonly running = new Map<string, RunningJob>();
  readonly stopped: Promise<void>;
  readonly #store: RedisRunStore;
  readonly #settings: WorkerSettings;
  readonly #queue: string;
  readonly #refresh: Subscription;
  readonly #looping: Promise<void>;
  #stopping = false;
  #blocking: RedisClient | undefined;
  #wakeSlot: (() => void) | undefined;
  readonly #stop = deferred<void>();

  constructor(store: RedisRunStore, settings: WorkerSettings) {
    this.#store = store;
    this.#settings = settings;
    this.#queue = queueKey(store.prefix);
    this.stopped = this.#stop.promise;
    this.stopped.catch(() => {});
    this.#refresh = this.#keepClaimsFresh(store.context.scheduler);
    this.#looping = this.#loop().catch((error: unknown) => {
      if (!this.#stopping) this.#stop.reject(error);
    });
  }

  /** Step 2: keeps our entries' idle time low while we run them, so only a dead worker's are reclaimed. */
  #keepClaimsFresh(scheduler: SchedulerLike): Subscription {
    const every = Math.max(1, Math.floor(this.#settings.claimIdleMs / 3));
    const pool = this;
    return scheduler.schedule(function () {
      if (pool.running.size > 0) {
        const ids = [...pool.running.keys()];
        pool.#client
          .call('XCLAIM', pool.#queue, pool.#settings.group, pool.#store.owner, 0, ...ids, 'JUSTID')
          .catch(() => {});
      }
      this.schedule(undefined, every);
    }, every);
  }

  get #client(): RedisClient {
    return this.#store.client;
  }

  /** Step 3: the loop — reclaim a dead worker's entries, then read new ones, up to the free slots. */
  async #loop(): Promise<void> {
    await this.#createGroup();
    this.#blocking = this.#store.duplicate();
    while (!this.#stopping) {
      if (this.#free() <= 0) {
        const slot = deferred<void>();
        this.#wakeSlot = slot.resolve;
        await slot.promise;
        this.#wakeSlot = undefined;
        continue;
      }
      for (const [entryId, fields] of await this.#reclaimable()) {
        if (this.#stopping) break;
        await this.#take(entryId, fields[1] ?? '', true);
      }
      if (this.#free() <= 0 || this.#stopping) continue;
      for (const [entryId, fields] of await this.#readNew(this.#blocking)) {
        await this.#take(entryId, fields[1] ?? '', false);
      }
    }
  }

  #free(): number {
    return this.#settings.concurrency - this.running.size;
  }

  async #createGroup(): Promise<void> {
    try {
      await this.#client.xgroup('CREATE', this.#queue, this.#settings.group, '0', 'MKSTREAM');
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('BUSYGROUP')) throw error;
    }
  }

  async #reclaimable(): Promise<QueueEntries> {
    const { group, claimIdleMs } = this.#settings;
    const owner = this.#store.owner;
    const claim = (await this.#client.xautoclaim(
      this.#queue,
      group,
      owner,
      claimIdleMs,
      '0-0',
      'COUNT',
      this.#free(),
    )) as [string, QueueEntries];
    return claim[1] ?? [];
  }

  async #readNew(blocking: RedisClient): Promise<QueueEntries> {
    const { group } = this.#settings;
    const { blockMs } = this.#store.context;
    const owner = this.#store.owner;
    const reply = (await blocking
      .xreadgroup('GROUP', group, owner, 'COUNT', this.#free(), 'BLOCK', blockMs, 'STREAMS', this.#queue, '>')
      .catch((error: unknown) => {
        if (this.#stopping) return null;
        throw error;
      })) as [string, QueueEntries][] | null;
    return reply?.[0]?.[1] ?? [];
  }

  /** Step 4: a queue entry — run it if its run never started; end a dead worker's started run. */
  async #take(entryId: string, runId: string, reclaimed: boolean): Promise<void> {
    const { state, job } = await this.#jobOf(runId);
    const { log } = this.#settings;
    if (state === 'queued' && job !== undefined && job.runId === runId) {
      if (reclaimed) log(`reclaimed run ${runId}: it never started, running it`);
      this.#start(entryId, job);
      return;
    }
    if (state === 'queued') {
      // Nothing can run it: end the run (its followers learn why) rather than leave it queued.
      await this.#store.cancel(runId, 'invalid-job');
      log(`ended run ${runId}: its job is not one this worker can read`);
    } else if (state === 'running' && reclaimed) {
      if ((await this.#declareLost(runId)) === 'ALIVE') return; // its owner still renews the lease
      log(`reclaimed run ${runId}: its worker died mid-run, ended with OWNER_LOST`);
    } else {
      log(`skipped run ${runId}: ${state ?? 'gone'}`);
    }
    await this.#acknowledge(entryId);
  }

  async #jobOf(runId: string): Promise<{ state: string | null; job: Job | undefined }> {
    const [state, raw] = await this.#client.hmget(runKeys(this.#store.prefix, runId).meta, 'state', 'job');
    try {
      const parsed = jobSchema.safeParse(JSON.parse(raw ?? 'null'));
      return { state: state ?? null, job: parsed.success ? parsed.data : undefined };
    } catch {
      return { state: state ?? null, job: undefined };
    }
  }

  #declareLost(runId: string): Promise<unknown> {
    const keys = runKeys(this.#store.prefix, runId);
    return judgeOwner(this.#client, keys, runId, this.#store.context.retainMs);
  }

  async #acknowledge(entryId: string): Promise<void> {
    await this.#client.xack(this.#queue, this.#settings.group, entryId);
    await this.#client.xdel(this.#queue, entryId);
  }

  /** Step 5: runs one job through `exec` and `toRunStore`; acknowledges its entry at the end. */
  #start(entryId: string, job: Job): void {
    const { log } = this.#settings;
    const command = [job.file, ...job.args].join(' ');
    log(`started run ${job.runId}: ${command}`);
    const ended = deferred<void>();
    const span = startWorkerRunSpan(this.#queue, this.#settings.group, entryId, job);
    let finished = false;
    const finish = (how: string, end: ChunkEvent<unknown> | { error: unknown }) => {
      if (finished) return;
      finished = true;
      endWorkerRunSpan(span, end);
      log(`finished run ${job.runId}: ${how}`);
      this.#acknowledge(entryId)
        .catch(() => {}) // unacknowledged: reclaimed later, and found ended
        .finally(() => {
          this.running.delete(entryId);
          ended.resolve();
          this.#wakeSlot?.();
        });
    };
    const events: Observable<ChunkEvent<unknown>> = exec(job.file, job.args, {
      reject: false,
      ...(job.cwd === undefined ? {} : { cwd: job.cwd }),
      ...(job.timeoutMs === undefined ? {} : { timeoutMs: job.timeoutMs }),
    });
    // Subscribed in the job's span: the run's `exec` span is its child, and the run stores its context.
    const subscription = span.within(() =>
      events.pipe(toRunStore(this.#store, job.runId, { label: command, ...retentionOf(job) })).subscribe({
        next: (event) => {
          if (!event.isFinal) return;
          const content = event.content as { exitCode?: number | null; signal?: string | null } | null;
          if (event.kind === 'exit') finish(`exit ${content?.exitCode ?? content?.signal}`, event);
          else finish(String(event.metadata?.reason ?? event.kind), event);
        },
        error: (error: unknown) => finish(`failed: ${(error as Error).message}`, { error }),
      }),
    );
    this.running.set(entryId, { runId: job.runId, subscription, ended: ended.promise, finish });
  }

  /** Step 6: stop taking jobs, give the running ones `graceMs`, cancel the rest. */
  async stop(graceMs: number): Promise<void> {
    if (this.#stopping) return this.stopped;
    this.#stopping = true;
    this.#blocking?.disconnect();
    this.#wakeSlot?.();
    await this.#looping;
    const all = () => Promise.all([...this.running.values()].map((run) => run.ended));
    let graceTimer: Subscription | undefined;
    const grace = new Promise<void>((resolve) => {
      graceTimer = this.#store.context.scheduler.schedule(resolve, graceMs);
    });
    await Promise.race([all(), grace]);
    graceTimer?.unsubscribe();
    for (const run of this.running.values()) {
      this.#settings.log(`cancelling run ${run.runId}: the worker is stopping`);
      await this.#store.cancel(run.runId, 'worker-stopped').catch((error: unknown) => {
        // The store cannot carry the cancel: end the run here (an unsubscribed stream says nothing more).
        run.subscription.unsubscribe();
        run.finish(`cancelled: the store is unreachable (${(error as Error).message})`, { error });
      });
    }
    await all();
    this.#refresh.unsubscribe();
    this.#stop.resolve();
    return this.stopped;
  }
}

/** The job's own retention, for its run's writer. */
function retentionOf(job: Job): RedisRunWriterOptions {
  return {
    ...(job.maxEvents === undefined ? {} : { maxEvents: job.maxEvents }),
    ...(job.maxBytes === undefined ? {} : { maxBytes: job.maxBytes }),
    ...(job.retainMs === undefined ? {} : { retainMs: job.retainMs }),
  };
}

/** The shape of a {@link Job} as it arrives from Redis (checked: it comes from outside). Internal. */
const jobSchema = z.object({
  runId: z.string().regex(/^[A-Za-z0-9._:-]{1,200}$/),
  file: z.string().min(1),
  args: z.array(z.string()),
  cwd: z.string().optional(),
  timeoutMs: z.number().int().nonnegative().max(MAX_DELAY_MS).optional(),
  maxEvents: z.number().int().positive().optional(),
  maxBytes: z.number().int().positive().optional(),
  retainMs: z.number().int().positive().optional(),
  // The submitter's trace, best effort: a value that is not a string of at most 512 characters is
  // dropped (the job runs, outside that trace); a traceparent that does not parse is ignored where
  // it is used.
  traceparent: z.string().max(512).optional().catch(undefined),
  tracestate: z.string().max(512).optional().catch(undefined),
});
