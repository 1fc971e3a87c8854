import { z } from 'zod';

/**
 * A command submitted to the worker pool ({@link submitRun}): what a worker runs through `exec`
 * and publishes as run `runId`.
 *
 * @example
 * ```ts
 * import type { RunJob } from 'sluice/redis';
 * const job: RunJob = { runId: 'build-7', file: 'make', args: ['test'], timeoutMs: 600_000 };
 * ```
 */
export interface RunJob {
  readonly runId: string;
  readonly file: string;
  readonly args: readonly string[];
  /** The working directory on the worker. */
  readonly cwd?: string;
  /** `exec`'s `timeoutMs` (`0`: none). */
  readonly timeoutMs?: number;
}

/** The shape of a job as it arrives from Redis (checked: it comes from outside). Internal. */
export const runJobSchema = z.object({
  runId: z.string().regex(/^[A-Za-z0-9._:-]{1,200}$/),
  file: z.string().min(1),
  args: z.array(z.string()),
  cwd: z.string().optional(),
  timeoutMs: z.number().int().nonnegative().max(2_147_483_647).optional(),
});
