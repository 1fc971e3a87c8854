import { asyncScheduler, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { finalBeforeComplete } from '../core/errors/sequence-error.js';
import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
import { createOperatorSubscriber, operate } from '../core/operate.js';
import { optionError } from '../core/option-error.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';

/** Options of {@link coalesce}. Validated when `coalesce(config)` is called. */
export interface CoalesceConfig {
  /** How long a batch stays open after its first event, in ms (non-negative, at most 2147483647). Default `16` (one frame). */
  readonly maxDelayMs?: number;
  /** Close the batch once it holds this many events (positive integer or `Infinity`). Default `Infinity`. */
  readonly maxItems?: number;
  /** Close the batch once its contents reach this many bytes (positive integer or `Infinity`). Default `Infinity`. */
  readonly maxBytes?: number;
  /** The clock. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/**
 * Batches a chunk stream into arrays for UIs, so a view renders at most once per window however
 * fast the producer is. A batch opens with its first event and is emitted `maxDelayMs` later,
 * or as soon as it holds `maxItems` events or `maxBytes` bytes of content, whichever comes first.
 * Size is the UTF-8 length of string contents and the `byteLength` of `Uint8Array` contents
 * (other contents count 0); a batch may exceed `maxBytes` by its last event. No event, no batch:
 * an empty window emits nothing. Order is preserved.
 *
 * The final event closes the batch it joins; that batch is emitted when the source completes
 * (every sluice source completes right after its final event), then the output completes. A
 * source that goes on after its final event (several runs flattened by `concatMap`) makes the
 * output emit what it holds before the final event and error with a `SequenceError`
 * (`STREAM_SEQUENCE`, rule `final-before-complete`) naming the remedy, `joinRuns()`. When the
 * source completes, the pending batch is emitted, then the output completes; when it errors,
 * the pending batch is emitted, then the error. Unsubscribing clears the timer and the batch.
 * The consumer's demand passes upstream unchanged (a paused consumer pauses the producer).
 *
 * @example
 * ```ts
 * import { exec } from 'sluice/sources';
 * import { coalesce } from 'sluice/operators';
 * exec('npm', ['test']).pipe(coalesce({ maxDelayMs: 16, maxItems: 500 })).subscribe((batch) => {
 *   view.append(batch.map((event) => event.content).join(''));
 * });
 * ```
 */
export function coalesce<E extends ChunkEvent<unknown>>(
  config: CoalesceConfig = {},
): OperatorFunction<E, E[]> {
  if (typeof config !== 'object' || config === null) throw optionError(undefined, 'an object', config);
  rejectUnknownOptions(config, ['maxDelayMs', 'maxItems', 'maxBytes', 'scheduler']);
  const { maxDelayMs = 16, maxItems = Infinity, maxBytes = Infinity, scheduler = asyncScheduler } = config;
  if (typeof maxDelayMs !== 'number' || !Number.isFinite(maxDelayMs) || maxDelayMs < 0) {
    throw optionError('maxDelayMs', 'a non-negative finite number', maxDelayMs);
  }
  if (maxDelayMs > MAX_DELAY_MS) {
    throw optionError('maxDelayMs', `a non-negative finite number up to ${MAX_DELAY_MS}`, maxDelayMs);
  }
  if (!isLimit(maxItems)) throw optionError('maxItems', 'a positive integer or Infinity', maxItems);
  if (!isLimit(maxBytes)) throw optionError('maxBytes', 'a positive integer or Infinity', maxBytes);
  if (typeof scheduler?.now !== 'function' || typeof scheduler.schedule !== 'function') {
    throw optionError('scheduler', 'a SchedulerLike', scheduler);
  }

  return operate((source, subscriber) => {
    let batch: E[] = [];
    let bytes = 0;
    let timer: Subscription | undefined;
    /** The final event, waiting for the source to complete. */
    let final: E | undefined;
    const flush = () => {
      timer?.unsubscribe();
      timer = undefined;
      if (batch.length === 0) return;
      const full = batch;
      batch = [];
      bytes = 0;
      subscriber.next(full);
    };
    source.subscribe(
      createOperatorSubscriber<E>(
        subscriber,
        (event) => {
          if (final !== undefined) {
            flush();
            subscriber.error(finalBeforeComplete(event.sequence));
            return;
          }
          if (event.isFinal) {
            final = event;
            return;
          }
          batch.push(event);
          if (maxBytes !== Infinity) bytes += chunkByteLength(event.content);
          if (batch.length >= maxItems || bytes >= maxBytes) flush();
          else timer ??= scheduler.schedule(flush, maxDelayMs);
        },
        () => {
          if (final !== undefined) batch.push(final);
          flush();
          subscriber.complete();
        },
        (error) => {
          flush();
          subscriber.error(error);
        },
      ),
    );
    return () => {
      timer?.unsubscribe();
      timer = undefined;
      batch = [];
    };
  });
}

function isLimit(value: unknown): boolean {
  return value === Infinity || (Number.isInteger(value) && (value as number) >= 1);
}

/**
 * The size {@link coalesce} counts for a chunk's content: the UTF-8 byte length of a string
 * (computed without encoding it; a lone surrogate counts 3, as its U+FFFD replacement), the
 * `byteLength` of a `Uint8Array` (any `ArrayBufferView`) or `ArrayBuffer`, and `0` for anything
 * else (`null` sentinels, objects). Internal to `src/operators`.
 *
 * @example
 * ```ts
 * chunkByteLength('héllo'); // 6
 * chunkByteLength(new Uint8Array(4)); // 4
 * chunkByteLength(null); // 0
 * ```
 */
export function chunkByteLength(content: unknown): number {
  if (typeof content === 'string') return utf8Length(content);
  if (ArrayBuffer.isView(content) || content instanceof ArrayBuffer) return content.byteLength;
  return 0;
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
