import { InvalidFrameError } from '../../core/errors/invalid-frame-error.js';

/**
 * Creates an `InvalidFrameError` for a decoded value (any value: a cyclic or hostile one is
 * described as `[a value that cannot be shown]`). (Internal to the protocol folder.)
 *
 * @example
 * ```ts
 * throw frameError('outcome.ok', input.ok, 'must be a boolean');
 * ```
 */
export function frameError(
  field: string,
  value: unknown,
  problem: string,
  cause?: unknown,
): InvalidFrameError {
  return new InvalidFrameError({ field, value }, problem, { cause });
}
