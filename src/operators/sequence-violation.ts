import { SequenceError } from '../core/errors/sequence-error.js';

/**
 * The rule a sequenced event breaks, if any: `received` must be `expected` (`start` first —
 * 0 unless a stream is followed from later on — then one more each time), and nothing may
 * follow the final event. Returns the {@link SequenceError} to fail with, or `undefined` when the
 * event is the right one. Shared by `checkSequence()` and the
 * kernel bridge's streams, which check without an operator in between. Internal.
 *
 * @example
 * ```ts
 * sequenceViolation(3, 5, false)?.info?.rule; // 'gap'
 * ```
 */
export function sequenceViolation(
  expected: number,
  received: number,
  finished: boolean,
  start = 0,
): SequenceError | undefined {
  if (finished) return new SequenceError({ rule: 'after-final', expected: undefined, received });
  if (received === expected) return undefined;
  const rule =
    expected === start
      ? 'start'
      : received > expected
        ? 'gap'
        : received === expected - 1
          ? 'duplicate'
          : 'order';
  return new SequenceError({ rule, expected, received });
}
