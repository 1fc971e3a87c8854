import { SluiceError } from '../core/errors/sluice-error.js';
import { optionError } from '../core/option-error.js';

/**
 * What an adapter does when its buffer grows because its source ignores the pause: `'warn'`
 * (once, through `logger.warn`; the default), `'error'` (fail the stream with a `SluiceError` of
 * code `DEMAND_IGNORED`, which cancels the source) or `'ignore'`.
 */
export type IgnoredDemandPolicy = 'warn' | 'error' | 'ignore';

/** Where a warning goes: anything with a `warn(message)` method (`console` by default). */
export interface WarnLogger {
  warn(message: string): void;
}

/** How many buffered values, as a multiple of the buffer size, mean "the source ignores the pause". */
export const IGNORED_DEMAND_FACTOR = 8;
const MINIMUM = 64;

/**
 * An adapter's overfill hook: called once when `at` values wait in its buffer — its source keeps
 * pushing while paused. Internal to `src/adapters`.
 */
export interface Overfill {
  readonly at: number;
  readonly call: (waiting: number) => void;
}

/**
 * Reads an adapter's `onIgnoredDemand` and `logger` options and returns its {@link Overfill}
 * hook, or `undefined` for `'ignore'`. `fail(error)` ends the
 * adapter's stream for `'error'`. Internal to `src/adapters`.
 *
 * @example
 * ```ts
 * const overfill = ignoredDemandHook(options, 'toAsyncIterable', 16, (error) => queue.fail(error));
 * ```
 */
export function ignoredDemandHook(
  options: { readonly onIgnoredDemand?: IgnoredDemandPolicy; readonly logger?: WarnLogger } | undefined,
  adapter: string,
  bufferSize: number,
  fail: (error: SluiceError) => void,
): Overfill | undefined {
  const policy = options?.onIgnoredDemand ?? 'warn';
  if (policy !== 'warn' && policy !== 'error' && policy !== 'ignore') {
    throw optionError('onIgnoredDemand', "one of 'warn', 'error', 'ignore'", policy);
  }
  const logger = options?.logger ?? console;
  if (typeof logger !== 'object' || logger === null || typeof logger.warn !== 'function') {
    throw optionError('logger', 'an object with a `warn` method', logger);
  }
  if (policy === 'ignore') return undefined;
  const at = Math.max(IGNORED_DEMAND_FACTOR * bufferSize, MINIMUM);
  return {
    at,
    call: (waiting) => {
      const message =
        `${adapter} holds ${waiting} values (its bufferSize is ${bufferSize}): its source keeps ` +
        'pushing while paused, so memory grows with the output. Something between the producer and ' +
        'this consumer does not carry demand (fromEvent, a plain Subject, delay, bufferTime, an ' +
        "observer that hides its subscriber, RxJS's share() — use sluice's share()). See " +
        'docs/backpressure.md, "What breaks it"; or put ' +
        "bounded({ strategy: 'sliding' }) in front of the consumer to cap it.";
      if (policy === 'warn') {
        logger.warn(`sluice: ${message}`);
        return;
      }
      fail(new SluiceError('DEMAND_IGNORED', message, { info: { adapter, waiting, bufferSize } }));
    },
  };
}
