import type { SchedulerLike } from 'rxjs';

/**
 * Whether `value` can be used as an RxJS `SchedulerLike` (an object with `now()` and
 * `schedule()`): `asyncScheduler`, a `TestScheduler`, a `VirtualTimeScheduler`, or one from
 * another copy of RxJS. Every `scheduler` option of sluice is checked with it. Internal: not
 * exported from the package.
 */
export function isSchedulerLike(value: unknown): value is SchedulerLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as SchedulerLike).now === 'function' &&
    typeof (value as SchedulerLike).schedule === 'function'
  );
}
