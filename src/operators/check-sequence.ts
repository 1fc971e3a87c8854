import type { MonoTypeOperatorFunction } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { finalBeforeComplete, SequenceError, sequenceViolation } from '../core/errors/sequence-error.js';
import { createOperatorSubscriber, operate } from '../core/operate.js';
import { optionError } from '../core/option-error.js';
import { readBoolean } from '../core/read-boolean.js';
import { readInteger } from '../core/read-integer.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';

/** Options of {@link checkSequence}. */
export interface CheckSequenceConfig {
  /** Whether completing without a final event is an error (`missing-final`). Default `true`. */
  readonly requireFinal?: boolean;
  /**
   * The sequence the first event must have. Default `0`; a follower that resumes after sequence
   * `n` checks from `n + 1`.
   */
  readonly start?: number;
}

/**
 * Passes a sequenced stream through unchanged, erroring with a {@link SequenceError} the moment a
 * rule breaks: `start` (the first is not 0 or `config.start`), `gap`, `duplicate`, `order`,
 * `final-before-complete` (anything after the final event; the message names `joinRuns()`) and
 * `missing-final` (completed without one, unless `requireFinal: false`).
 *
 * @example
 * ```ts
 * import { from } from 'rxjs';
 * import { checkSequence } from 'sluice/operators';
 * from([
 *   { sequence: 0, kind: 'body', content: 'a', isFinal: false },
 *   { sequence: 2, kind: 'body', content: 'c', isFinal: true },
 * ]).pipe(checkSequence()).subscribe({ error: (e) => console.log(e.message) });
 * // 'Sequence gap: expected 1, received 2 (1 is missing)'
 * ```
 */
export function checkSequence<T extends ChunkEvent<unknown>>(
  config: CheckSequenceConfig = {},
): MonoTypeOperatorFunction<T> {
  if (typeof config !== 'object' || config === null) throw optionError(undefined, 'an object', config);
  rejectUnknownOptions(config, ['requireFinal', 'start']);
  const requireFinal = readBoolean(config, 'requireFinal', true);
  const start = readInteger(config, 'start', 0);
  return operate((source, subscriber) => {
    let expected = start;
    let finished = false;
    source.subscribe(
      createOperatorSubscriber<T>(
        subscriber,
        (event) => {
          const violation = finished
            ? finalBeforeComplete(event.sequence)
            : sequenceViolation(expected, event.sequence, false, start);
          if (violation !== undefined) {
            subscriber.error(violation);
            return;
          }
          expected += 1;
          if (event.isFinal) finished = true;
          subscriber.next(event);
        },
        () => {
          if (requireFinal && !finished) {
            subscriber.error(new SequenceError({ rule: 'missing-final', expected, received: undefined }));
            return;
          }
          subscriber.complete();
        },
      ),
    );
  });
}
