import { asyncScheduler, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { finalBeforeComplete } from '../core/errors/sequence-error.js';
import { isSchedulerLike } from '../core/is-scheduler-like.js';
import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
import { createOperatorSubscriber, operate } from '../core/operate.js';
import { optionError } from '../core/option-error.js';
import { readOption } from '../core/read-option.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';

/** Options of {@link coalesce}, checked when it is called. */
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
 * Batches a chunk stream into arrays for UIs. A batch opens with its first event and goes out
 * `maxDelayMs` later, or once it holds `maxItems` events or `maxBytes` bytes of content (UTF-8
 * length of strings, `byteLength` of bytes; its last event may exceed it). No event, no batch.
 *
 * The final event closes its batch, emitted when the source completes; an event after it emits
 * what is held and errors with a `SequenceError` (`final-before-complete`). On completion or an
 * error the pending batch goes out first. Unsubscribing clears the timer; demand passes through.
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
  const { maxDelayMs = 16, maxItems = Infinity, maxBytes = Infinity } = config;
  if (typeof maxDelayMs !== 'number' || !Number.isFinite(maxDelayMs) || maxDelayMs < 0) {
    throw optionError('maxDelayMs', 'a non-negative finite number', maxDelayMs);
  }
  if (maxDelayMs > MAX_DELAY_MS) {
    throw optionError('maxDelayMs', `a non-negative finite number up to ${MAX_DELAY_MS}`, maxDelayMs);
  }
  if (!isLimit(maxItems)) throw optionError('maxItems', 'a positive integer or Infinity', maxItems);
  if (!isLimit(maxBytes)) throw optionError('maxBytes', 'a positive integer or Infinity', maxBytes);
  const scheduler = readOption(config, 'scheduler', isSchedulerLike, 'a SchedulerLike', asyncScheduler);

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
 * The bytes {@link coalesce} counts for a content: a string's UTF-8 length without encoding it (a
 * lone surrogate counts 3, as its U+FFFD), a buffer's `byteLength`, else 0.
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
