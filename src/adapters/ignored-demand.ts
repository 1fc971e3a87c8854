import { SluiceError } from '../core/errors/sluice-error.js';
import { readInteger } from '../core/read-integer.js';
import { readOption } from '../core/read-option.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';

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

/** What every consuming adapter does when a source ignores the pause. */
export interface IgnoredDemandOptions {
  /**
   * What to do when the buffer grows to 8 × its size (at least 64) because the source keeps
   * pushing while paused (docs/backpressure.md): see {@link IgnoredDemandPolicy}; `'error'` comes
   * once the values already buffered went out.
   */
  readonly onIgnoredDemand?: IgnoredDemandPolicy;
  /** Where the ignored-demand warning goes. Default `console`. */
  readonly logger?: WarnLogger;
}

/**
 * Reads an adapter's options (`sizeName` and {@link IgnoredDemandOptions}, then `more`), refusing
 * unknown ones: its buffer size and its {@link Overfill} hook (`undefined` for `'ignore'`), whose
 * `fail(error)` ends the adapter's stream for `'error'`. Internal to `src/adapters`.
 */
export function readAdapterOptions(
  options: IgnoredDemandOptions | undefined,
  adapter: string,
  sizeName: string,
  fail: (error: SluiceError) => void,
  more: readonly string[] = [],
): { readonly size: number; readonly overfill: Overfill | undefined } {
  rejectUnknownOptions(options, [sizeName, ...more, 'onIgnoredDemand', 'logger']);
  const size = readInteger(options, sizeName, 16);
  const policy = readOption<IgnoredDemandPolicy>(
    options,
    'onIgnoredDemand',
    (value) => value === 'warn' || value === 'error' || value === 'ignore',
    "one of 'warn', 'error', 'ignore'",
    'warn',
  );
  const logger = readOption<WarnLogger>(
    options,
    'logger',
    (value) =>
      typeof value === 'object' && value !== null && typeof (value as WarnLogger).warn === 'function',
    'an object with a `warn` method',
    console,
  );
  return {
    size,
    overfill: policy === 'ignore' ? undefined : overfillHook(adapter, size, policy, logger, fail),
  };
}

function overfillHook(
  adapter: string,
  bufferSize: number,
  policy: 'warn' | 'error',
  logger: WarnLogger,
  fail: (error: SluiceError) => void,
): Overfill {
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
