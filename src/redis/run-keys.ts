/**
 * The Redis keys of one run. Every key carries the run id as its hash tag (`{runId}`), so a run's
 * keys live in one Redis Cluster slot and its scripts may touch them together; different runs
 * spread over the cluster. See `docs/scaling.md`.
 */
export interface RunKeys {
  /** The Redis Stream of the run's events: one entry per batch of consecutive events. */
  readonly events: string;
  /** A hash: `state`, `owner`, `next`, `end`, `cancel`, and the submitted `job` of a queued run. */
  readonly meta: string;
  /** The owner's lease (a string with a TTL), renewed by its heartbeat. */
  readonly lease: string;
  /** The pub/sub channel that carries cancel requests to the owner. */
  readonly control: string;
}

const RUN_ID = /^[A-Za-z0-9._:-]{1,200}$/;

/**
 * Whether `runId` can name a run: 1–200 letters, digits, `.`, `_`, `:` or `-` (no braces, so the
 * hash tag stays intact; nothing a shell or a URL needs to quote).
 *
 * @example
 * ```ts
 * import { isRunId } from 'sluice/redis';
 * isRunId('build-7'); // true
 * isRunId('a{b}'); // false
 * ```
 */
export function isRunId(runId: unknown): runId is string {
  return typeof runId === 'string' && RUN_ID.test(runId);
}

/**
 * The keys of run `runId` under `prefix` (see {@link RunKeys}).
 *
 * @example
 * ```ts
 * import { runKeys } from 'sluice/redis';
 * const { events, meta, lease, control } = runKeys('sluice', 'build-7');
 * ```
 */
export function runKeys(prefix: string, runId: string): RunKeys {
  const base = `${prefix}:{${runId}}`;
  return {
    events: `${base}:events`,
    meta: `${base}:meta`,
    lease: `${base}:lease`,
    control: `${base}:control`,
  };
}
