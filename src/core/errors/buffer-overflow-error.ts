import { isSluiceError, SluiceError } from './sluice-error.js';

/** Details carried by a {@link BufferOverflowError}. */
export interface BufferOverflowInfo {
  /** The size of the buffer that overflowed (`bufferSize` of `bounded()` or of `share()`'s `slowConsumer`). */
  bufferSize: number;
}

/**
 * A bounded buffer with the `error` strategy was full and another event arrived: the consumer
 * is slower than a producer that cannot be paused. Code `BUFFER_OVERFLOW`.
 *
 * @example
 * ```ts
 * import { BufferOverflowError } from 'sluice';
 * const error = new BufferOverflowError({ bufferSize: 16 });
 * error.message; // 'Buffer overflow: 16 events were already waiting for a paused consumer'
 * ```
 */
export class BufferOverflowError extends SluiceError<BufferOverflowInfo> {
  constructor(info: BufferOverflowInfo, options: { cause?: unknown } = {}) {
    super(
      'BUFFER_OVERFLOW',
      `Buffer overflow: ${info.bufferSize} events were already waiting for a paused consumer`,
      { info, cause: options.cause },
    );
  }

  override get name(): string {
    return 'BufferOverflowError';
  }
}

/**
 * Whether `value` is a {@link BufferOverflowError} (code `BUFFER_OVERFLOW`).
 *
 * @example
 * ```ts
 * if (isBufferOverflowError(error)) console.log(error.info?.bufferSize);
 * ```
 */
export function isBufferOverflowError(value: unknown): value is BufferOverflowError {
  return isSluiceError(value, 'BUFFER_OVERFLOW');
}
