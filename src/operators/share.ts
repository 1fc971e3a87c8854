import {
  type MonoTypeOperatorFunction,
  Observable,
  ReplaySubject,
  share as rxShare,
  type SchedulerLike,
  type ShareConfig,
  type ShareReplayConfig,
  Subject,
  type SubjectLike,
  type Subscriber,
} from 'rxjs';
import type { AggregateDemand, Governor } from '../core/aggregate-demand.js';
import type { ChunkEvent } from '../core/chunk.js';
import { optionError } from '../core/option-error.js';
import { readInteger } from '../core/read-integer.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { subscribersDemand, subscribeWithDemand } from '../core/subscriber-chain.js';
import { boundedChannel } from './bounded-channel.js';

/** Options of sluice's {@link share}: RxJS's, plus who sets the producer's pace. */
export interface DemandShareConfig<T> extends ShareConfig<T> {
  /** `'slowest'` (default, lossless) or `'fastest'` (then `slowConsumer` bounds each consumer; chunk streams only). */
  readonly governor?: Governor;
  /** With `governor: 'fastest'`: each consumer's bound. Default `{ bufferSize: 256, strategy: 'sliding' }`. */
  readonly slowConsumer?: {
    readonly bufferSize?: number;
    readonly strategy?: 'dropping' | 'sliding' | 'error';
  };
}

const KNOWN = [
  'connector',
  'resetOnError',
  'resetOnComplete',
  'resetOnRefCountZero',
  'governor',
  'slowConsumer',
];

/**
 * RxJS's `share()`, with the consumers' demand reaching the producer: a drop-in (RxJS's own
 * `share` does the sharing). RxJS's hides its consumers from the producer; here the producer sees
 * the combined demand of the consumers subscribed at the moment:
 *
 * - `governor: 'slowest'` (default): paused while any consumer is. Lossless.
 * - `governor: 'fastest'`: paused only while every consumer is; one that falls behind bounds its
 *   backlog with `slowConsumer`, reporting drops in `metadata.dropped` (chunk streams).
 *
 * A consumer that leaves stops counting at once; one without demand never pauses it
 * (docs/backpressure.md, "Several consumers of one producer").
 *
 * @example
 * ```ts
 * import { exec, share, toAsyncIterable } from 'sluice';
 * const run$ = exec('npm', ['test']).pipe(share());
 * const log = onChunk(run$, (event) => appendToFile(event)); // slow: npm waits for it
 * for await (const event of toAsyncIterable(run$)) render(event); // sees every line too
 * ```
 */
export function share<T>(config: DemandShareConfig<T> = {}): MonoTypeOperatorFunction<T> {
  if (typeof config !== 'object' || config === null) throw optionError(undefined, 'an object', config);
  rejectUnknownOptions(config, KNOWN);
  const { governor = 'slowest', slowConsumer, connector = () => new Subject<T>(), ...resets } = config;
  if (governor !== 'slowest' && governor !== 'fastest') {
    throw optionError('governor', "'slowest' or 'fastest'", governor);
  }
  if (typeof connector !== 'function') throw optionError('connector', 'a function', connector);
  for (const name of ['resetOnError', 'resetOnComplete', 'resetOnRefCountZero'] as const) {
    const reset = resets[name];
    if (reset !== undefined && typeof reset !== 'boolean' && typeof reset !== 'function') {
      throw optionError(name, 'a boolean or a function returning an Observable', reset);
    }
  }
  const bound = governor === 'fastest' ? readSlowConsumer(slowConsumer) : undefined;
  return (source) => {
    let subject: SubjectLike<T> | undefined;
    let demand: AggregateDemand | null = null;
    const linked = new Observable<T>((subscriber) => {
      demand = subscribersDemand(subject, governor) ?? null;
      return subscribeWithDemand(source, demand, subscriber);
    });
    const shared = rxShare<T>({ ...resets, connector: () => (subject = connector()) })(linked);
    const consumed =
      bound === undefined
        ? shared
        : ((shared as unknown as Observable<ChunkEvent<unknown>>).pipe(
            boundedChannel<ChunkEvent<unknown>>(bound.bufferSize, bound.strategy, true),
          ) as unknown as Observable<T>);
    // A consumer that joins may change who governs: the producer is told at once. Lifted, as RxJS's operators are.
    return source.lift<T>({
      call: (subscriber: Subscriber<T>) => {
        const subscription = consumed.subscribe(subscriber);
        demand?.refresh();
        return subscription;
      },
    });
  };
}

function readSlowConsumer(value: DemandShareConfig<unknown>['slowConsumer']) {
  if (value === undefined) return { bufferSize: 256, strategy: 'sliding' as const };
  if (typeof value !== 'object' || value === null) throw optionError('slowConsumer', 'an object', value);
  rejectUnknownOptions(value, ['bufferSize', 'strategy'], 'slowConsumer.');
  const bufferSize = readInteger(value, 'bufferSize', 256, { min: 1, prefix: 'slowConsumer.' });
  const { strategy = 'sliding' } = value;
  if (strategy !== 'dropping' && strategy !== 'sliding' && strategy !== 'error') {
    throw optionError('slowConsumer.strategy', "one of 'dropping', 'sliding', 'error'", strategy);
  }
  return { bufferSize, strategy };
}

/**
 * RxJS's `shareReplay()` on sluice's {@link share} (`'slowest'`): a drop-in with the same
 * signatures and semantics; the replayed values are held as in RxJS, the live ones pause the
 * producer while any consumer is paused.
 *
 * @example
 * ```ts
 * import { exec, shareReplay } from 'sluice';
 * const build$ = exec('make').pipe(shareReplay({ bufferSize: 100, refCount: true }));
 * ```
 */
export function shareReplay<T>(config: ShareReplayConfig): MonoTypeOperatorFunction<T>;
/**
 * {@link shareReplay} with RxJS's positional arguments: the replay buffer's size, its window and
 * the scheduler of that window.
 *
 * @example
 * ```ts
 * import { exec, shareReplay } from 'sluice';
 * const last100$ = exec('tail', ['-f', 'app.log']).pipe(shareReplay(100));
 * ```
 */
export function shareReplay<T>(
  bufferSize?: number,
  windowTime?: number,
  scheduler?: SchedulerLike,
): MonoTypeOperatorFunction<T>;
export function shareReplay<T>(
  configOrBufferSize?: ShareReplayConfig | number,
  windowTime?: number,
  scheduler?: SchedulerLike,
): MonoTypeOperatorFunction<T> {
  let bufferSize: number;
  let window = windowTime;
  let clock = scheduler;
  let refCount = false;
  let what: 'option' | 'argument' = 'argument';
  if (configOrBufferSize !== null && typeof configOrBufferSize === 'object') {
    rejectUnknownOptions(configOrBufferSize, ['bufferSize', 'windowTime', 'refCount', 'scheduler']);
    what = 'option';
    ({
      bufferSize = Number.POSITIVE_INFINITY,
      windowTime: window = Number.POSITIVE_INFINITY,
      refCount = false,
    } = configOrBufferSize);
    clock = configOrBufferSize.scheduler;
  } else {
    bufferSize = configOrBufferSize ?? Number.POSITIVE_INFINITY;
  }
  checkSize('bufferSize', bufferSize, what);
  checkSize('windowTime', window, what);
  if (typeof refCount !== 'boolean') throw optionError('refCount', 'a boolean', refCount);
  return share<T>({
    connector: () => new ReplaySubject<T>(bufferSize, window, clock),
    resetOnError: true,
    resetOnComplete: false,
    resetOnRefCountZero: refCount,
  });
}

/** A buffer size or a window: a non-negative number (`Infinity` included), or absent. */
function checkSize(name: string, value: unknown, what: 'option' | 'argument'): void {
  if (value !== undefined && (typeof value !== 'number' || Number.isNaN(value) || value < 0)) {
    throw optionError(name, 'a non-negative number', value, what);
  }
}
