import type { Demand } from './demand.js';

/**
 * Whether `value` can be used as a {@link Demand}: a boolean `paused` and an `onChange()`
 * method. The `demand` options of `exec` and `http` are checked with it. Internal: not exported
 * from the package.
 *
 * @example
 * ```ts
 * import { isDemand } from '../core/is-demand.js';
 * const demand = readOption(options, 'demand', isDemand, 'a Demand (`paused` and `onChange()`)', undefined);
 * ```
 */
export function isDemand(value: unknown): value is Demand {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Demand).paused === 'boolean' &&
    typeof (value as Demand).onChange === 'function'
  );
}
