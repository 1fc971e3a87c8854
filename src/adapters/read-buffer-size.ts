import { lazySchema } from '../core/lazy-zod.js';
import { readOption } from '../core/read-option.js';

const bufferSizeSchema = lazySchema((z) => z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER));

/**
 * Reads an adapter's buffer size option (`bufferSize`, `highWaterMark`): a non-negative safe
 * integer, `fallback` when absent. `0` means pure pull: the producer may read only while a
 * consumer is waiting. Internal to `src/adapters`.
 *
 * @example
 * ```ts
 * const bufferSize = readBufferSize(options, 'bufferSize', 16);
 * ```
 */
export function readBufferSize(options: unknown, name: string, fallback: number): number {
  return readOption(options, name, bufferSizeSchema(), 'a non-negative integer', fallback);
}
