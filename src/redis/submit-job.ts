import { randomUUID } from 'node:crypto';
import { RunStoreError } from '../core/errors/run-store-error.js';
import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
import { optionError } from '../core/option-error.js';
import { readInteger } from '../core/read-integer.js';
import { readOption } from '../core/read-option.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { activeCarrier } from '../trace/trace-context.js';
import { redisFailure } from './connect-redis.js';
import type { RedisRunStore } from './redis-run-store.js';
import { isRunId, runKeys } from './run-keys.js';
import { evalScript, SUBMIT } from './run-scripts.js';

/** What to run ({@link submitJob}): the command and, optionally, the run id to publish it as. */
export interface SubmitJobOptions {
  readonly file: string;
  readonly args?: readonly string[];
  /** Default: a random UUID. */
  readonly runId?: string;
  /** The working directory on the worker. */
  readonly cwd?: string;
  /** `exec`'s `timeoutMs` on the worker (`0`: none). */
  readonly timeoutMs?: number;
  /** The run's retention on the worker (default: the worker's store's): see `RedisRunStoreOptions`. */
  readonly maxEvents?: number;
  readonly maxBytes?: number;
  readonly retainMs?: number;
}

/** A job on the queue: what a worker runs through `exec` and publishes as run `runId`. */
export interface Job extends SubmitJobOptions {
  readonly runId: string;
  readonly args: readonly string[];
  /**
   * The trace context the job was submitted in (W3C), when a span was active: the worker's span
   * of the run is its child (docs/scaling.md, "Tracing").
   */
  readonly traceparent?: string;
  readonly tracestate?: string;
}

/**
 * The key of the run queue under `prefix`: a Redis Stream read by the workers' consumer group.
 *
 * @example
 * ```ts
 * import { queueKey } from 'sluice/redis';
 * await store.client.xlen(queueKey('sluice')); // runs waiting or running
 * ```
 */
export const queueKey = (prefix: string): string => `${prefix}:queue`;

/**
 * Puts a command on the run queue of `store`'s Redis and resolves with its run id. The run exists
 * at once (state `queued`): it can be followed and cancelled before a worker takes it.
 *
 * @example
 * ```ts
 * import { fromRunStore } from 'sluice';
 * import { RedisRunStore, submitJob } from 'sluice/redis';
 * const store = new RedisRunStore({ url: 'redis://127.0.0.1:6379' });
 * const runId = await submitJob(store, { file: 'make', args: ['test'] });
 * fromRunStore(store, runId).subscribe((event) => console.log(event.kind, event.content));
 * ```
 */
export async function submitJob(store: RedisRunStore, options: SubmitJobOptions): Promise<string> {
  if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
  rejectUnknownOptions(options, 'file args runId cwd timeoutMs maxEvents maxBytes retainMs'.split(' '));
  const runId = options.runId ?? randomUUID();
  if (!isRunId(runId))
    throw optionError('runId', 'a run id (1-200 letters, digits, `.`, `_`, `:` or `-`)', runId);
  const isText = (value: unknown): value is string => typeof value === 'string';
  const file = readOption<string, undefined>(options, 'file', isText, 'a non-empty string', undefined);
  if (file === undefined || file === '') throw optionError('file', 'a non-empty string', file);
  const job: Job = {
    runId,
    file,
    args: readOption<string[]>(
      options,
      'args',
      (value) => Array.isArray(value) && value.every((arg) => typeof arg === 'string'),
      'an array of strings',
      [],
    ),
    cwd: readOption<string, undefined>(options, 'cwd', isText, 'a string', undefined),
    timeoutMs: readInteger(options, 'timeoutMs', undefined, { max: MAX_DELAY_MS }),
    maxEvents: readInteger(options, 'maxEvents', undefined, { min: 1 }),
    maxBytes: readInteger(options, 'maxBytes', undefined, { min: 1 }),
    retainMs: readInteger(options, 'retainMs', undefined, { min: 1 }),
    ...submitterTrace(),
  };
  const keys = runKeys(store.prefix, runId);
  const { leaseMs } = store.context;
  const retainMs = job.retainMs ?? store.context.retainMs;
  try {
    await evalScript(store.client, SUBMIT, keys, [JSON.stringify(job), retainMs + leaseMs]);
  } catch (error) {
    if (error instanceof Error && /^(ERR )?EXISTS/.test(error.message)) {
      throw new RunStoreError('RUN_EXISTS', `Run ${runId} already exists`, { info: { runId } });
    }
    throw new RunStoreError(
      'RUN_STORE_FAILED',
      `Submitting run ${runId} failed: ${redisFailure(store.client, error)}`,
      {
        info: { runId },
        cause: error,
      },
    );
  }
  await store.client.xadd(queueKey(store.prefix), '*', 'run', runId);
  return runId;
}

/**
 * The active trace context for the job, with a `tracestate` over the 512 characters a job keeps
 * left out (W3C lets a vendor truncate it; the trace itself still joins).
 */
function submitterTrace(): Pick<Job, 'traceparent' | 'tracestate'> {
  const carrier = activeCarrier();
  if (carrier === undefined) return {};
  const { traceparent, tracestate } = carrier;
  return tracestate !== undefined && tracestate.length <= 512 ? { traceparent, tracestate } : { traceparent };
}
