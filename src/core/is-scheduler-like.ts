import type { SchedulerLike } from 'rxjs';

/** Whether `value` can be used as an RxJS `SchedulerLike`, from any copy of RxJS (every `scheduler` option's check). */
export function isSchedulerLike(value: unknown): value is SchedulerLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as SchedulerLike).now === 'function' &&
    typeof (value as SchedulerLike).schedule === 'function'
  );
}
