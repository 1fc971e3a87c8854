import {
  type MonoTypeOperatorFunction,
  ReplaySubject,
  type SchedulerLike,
  type ShareReplayConfig,
} from 'rxjs';
import { optionError } from '../core/option-error.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { share } from './share.js';

/**
 * RxJS's `shareReplay()`, with the consumers' demand reaching the producer (see sluice's
 * {@link share}, `governor: 'slowest'`): a drop-in with the same two signatures and the same
 * semantics — a `ReplaySubject` of `bufferSize` values within `windowTime`, kept after the source
 * completes, reset on error, and on a refcount of zero only with `refCount: true`. The replayed
 * values are held by the subject as in RxJS; the live ones pause the producer while any
 * consumer's buffer is full.
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
