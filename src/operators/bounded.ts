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
 * A bounded channel (docs/backpressure.md) as an operator on a sequenced stream. It reads its
 * consumer's demand ({@link demandOf}) when subscribed; without one (plain `subscribe()`) it is
 * a pass-through, since nobody ever pauses.
 *
 * An event is forwarded at once while the consumer flows and nothing waits; otherwise it waits
 * in a FIFO. When `bufferSize` events wait, the `strategy` applies:
 *
 * - `suspend` pauses the producer: the source is subscribed with this operator's own demand
 *   (on the subscriber chain), paused at `bufferSize` and resumed as soon as fewer wait. Events that still arrive while it is
 *   paused (a producer finishing the read it was in) are kept, so the FIFO can overshoot by a few.
 *   A producer that ignores demand entirely (`fromEvent`, a `Subject`) is not slowed down and the
 *   FIFO grows without bound: use another strategy for those.
 * - `dropping` drops the arriving event, `sliding` the oldest waiting one; neither pauses the
 *   producer (the source is subscribed with no demand: it pushes freely). The final event is never dropped: when it arrives at a full
 *   FIFO, a non-final event makes room. Drops are never silent: the event that follows a gap
 *   carries `metadata.dropped` (how many are missing right before it), and sequences are
 *   re-stamped (`sequence − events dropped before it`) so the output stays contiguous and
 *   passes `checkSequence()`; put `checkSequence()` *before* `bounded()` to check the source.
 *   If the source completes without a final event after dropping its last events, a final
 *   `{ kind: 'end', content: null }` sentinel carries that count.
 * - `error` fails with a {@link BufferOverflowError} (code `BUFFER_OVERFLOW`, `info.bufferSize`)
 *   and cancels the source; the final event alone may still get in (the stream is over).
 *
 * The final event is forwarded like any other; the stream completes when the source does (every
 * sluice source completes right after its final event). A source that goes on after a final
 * event instead (several runs flattened by `concatMap` or `mergeMap`) makes the output error with
 * a `SequenceError` (`STREAM_SEQUENCE`, rule `final-before-complete`) naming the remedy,
 * `joinRuns()`, and the source is cancelled: never a silent end after the first run, with or
 * without a consumer's demand. Completion and errors — the source's or the overflow — wait until every
 * event before them has been delivered: they never overtake the FIFO, even while the consumer
 * stays paused. Unsubscribing frees the FIFO and cancels the source.
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
