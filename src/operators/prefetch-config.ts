import { readInteger } from '../core/read-integer.js';

/**
 * The option of sluice's buffering operators (`concatMap`, `mergeMap`, `zip`, …): how many values
 * the operator may hold beyond what it works on before it pauses its source. See
 * docs/backpressure.md, "Operators that hold values".
 */
export interface PrefetchConfig {
  /**
   * Values that may wait before the source is paused. A positive integer, or `Infinity` for RxJS's
   * own unbounded buffer (never pause: see docs/backpressure.md for the one case that needs it, a
   * shared producer read twice by one operator); default `16`.
   */
  readonly prefetch?: number;
}

/** The default of {@link PrefetchConfig.prefetch}. */
export const DEFAULT_PREFETCH = 16;

/**
 * Reads {@link PrefetchConfig} (before anything is subscribed), naming the field on bad input.
 * Internal to `src/operators`.
 *
 * @example
 * ```ts
 * const prefetch = readPrefetch(config); // 16 when absent
 * ```
 */
export function readPrefetch(config: PrefetchConfig | undefined): number {
  if (config?.prefetch === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
  return readInteger(config, 'prefetch', DEFAULT_PREFETCH, { min: 1 });
}
