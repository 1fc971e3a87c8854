import type { SchedulerLike } from 'rxjs';
import { z } from 'zod';

/**
 * A zod schema accepting any RxJS `SchedulerLike` (an object with `now()` and `schedule()`):
 * `asyncScheduler`, `asapScheduler`, a `TestScheduler`, a `VirtualTimeScheduler`.
 * Internal to `src/kernel`.
 *
 * @example
 * ```ts
 * schedulerLikeSchema.parse(asyncScheduler);
 * ```
 */
export const schedulerLikeSchema: z.ZodType<SchedulerLike> = z.custom<SchedulerLike>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as SchedulerLike).now === 'function' &&
    typeof (value as SchedulerLike).schedule === 'function',
);
