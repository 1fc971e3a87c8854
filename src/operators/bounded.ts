import type { OperatorFunction } from 'rxjs';
import type { ChunkEvent, EndSentinel } from '../core/chunk.js';
import { optionError } from '../core/option-error.js';
import { readInteger } from '../core/read-integer.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { type BoundedStrategy, boundedChannel } from './bounded-channel.js';

/** Options of {@link bounded}. Validated when `bounded(config)` is called. */
export interface BoundedConfig {
  /** How many events may wait for a paused consumer. A positive integer; default `16`. */
  readonly bufferSize?: number;
  /** What happens when `bufferSize` events wait. Default `'suspend'`. */
  readonly strategy?: BoundedStrategy;
}

const STRATEGIES: readonly unknown[] = ['suspend', 'dropping', 'sliding', 'error'];

/**
 * A bounded channel (docs/backpressure.md) as an operator on a sequenced stream: with no demand
 * below (plain `subscribe()`) a pass-through. An event waits in a FIFO while the consumer is
 * paused; when `bufferSize` wait, `strategy` applies:
 *
 * - `suspend` pauses the producer until fewer wait; events still arriving meanwhile are kept (a
 *   producer that ignores demand, such as `fromEvent`, grows the FIFO without bound).
 * - `dropping` drops the arriving event, `sliding` the oldest waiting one; neither pauses the
 *   producer. The final event is never dropped. The event after a gap carries `metadata.dropped`,
 *   and sequences are re-stamped so the output stays contiguous (put `checkSequence()` *before*
 *   `bounded()` to check the source); drops at the very end get a final `end` sentinel.
 * - `error` fails with a {@link BufferOverflowError} (`BUFFER_OVERFLOW`) and cancels the source.
 *
 * A source that goes on after its final event (several runs flattened) errors with a
 * `SequenceError` (`final-before-complete`) naming the remedy, `joinRuns()`. Completion and
 * errors never overtake the FIFO. Unsubscribing frees it and cancels the source.
 *
 * @example
 * ```ts
 * import { exec } from 'sluice/sources';
 * import { bounded } from 'sluice/operators';
 * import { toAsyncIterable } from 'sluice/adapters';
 * const events = exec('make', ['build']).pipe(bounded({ bufferSize: 64 }));
 * for await (const event of toAsyncIterable(events, { bufferSize: 16 })) {
 *   await render(event); // make blocks on its stdout while 16 + 64 lines wait
 * }
 * ```
 */
export function bounded<E extends ChunkEvent<unknown>>(
  config: BoundedConfig = {},
): OperatorFunction<E, E | EndSentinel> {
  if (typeof config !== 'object' || config === null) throw optionError(undefined, 'an object', config);
  rejectUnknownOptions(config, ['bufferSize', 'strategy']);
  const bufferSize = readInteger(config, 'bufferSize', 16, { min: 1 });
  const strategy = config.strategy ?? 'suspend';
  if (!STRATEGIES.includes(strategy)) {
    throw optionError('strategy', "one of 'suspend', 'dropping', 'sliding', 'error'", strategy);
  }
  return boundedChannel<E>(bufferSize, strategy, false);
}
