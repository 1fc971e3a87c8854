import type { SchedulerLike } from 'rxjs';
import { z } from 'zod';

/**
 * The zod schema of a `scheduler` option: any object with `now()` and `schedule()` (an RxJS
 * `SchedulerLike`, such as `asyncScheduler` or a `TestScheduler`). Internal to `src/browser`.
 *
 * @example
 * ```ts
 * const scheduler = readOption(options, 'scheduler', schedulerOptionSchema, 'a SchedulerLike', asyncScheduler);
 * ```
 */
export const schedulerOptionSchema = z.custom<SchedulerLike>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as SchedulerLike).now === 'function' &&
    typeof (value as SchedulerLike).schedule === 'function',
);
