import { Observable } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { currentDemand, subscribeWithDemand } from '../core/demand.js';
import { SequenceError } from '../core/errors/sequence-error.js';
import { createOperatorSubscriber } from '../core/operate.js';
import { optionError } from '../core/option-error.js';
import { checkSequence } from '../operators/check-sequence.js';
import { readAfter } from './read-after.js';
import { runFailureError } from './run-failure.js';
import type { RunRecord } from './run-record.js';
import type { RunReadOptions, RunStore } from './run-store.js';

/**
 * Follows run `runId` of `store` from wherever this process is: the events after
 * `options.after` (default: from the start), live until the run's final event, then `complete`.
 * A cold, demand-aware source — a consumer that pauses stops the store reads (no `XREAD` is sent
 * while paused) — validated by {@link checkSequence} from `after + 1`.
 *
 * It errors with a `SequenceError` (rule `gap`) when the events it needs were trimmed by the
 * store's retention, never skipping silently; with the run's failure when it failed (an
 * `OwnerLostError` when its owner died); with `RUN_NOT_FOUND` for an unknown run.
 *
 * @example
 * ```ts
 * import { fromRunStore } from 'sluice';
 * import { RedisRunStore } from 'sluice/redis';
 * const store = new RedisRunStore({ url: 'redis://127.0.0.1:6379' });
 * fromRunStore(store, 'build-7', { after: 41 }).subscribe({
 *   next: (event) => console.log(event.sequence, event.kind), // 42, 43, …
 *   error: (error) => console.error(error.code),
 * });
 * ```
 */
export function fromRunStore(
  store: RunStore,
  runId: string,
  options: RunReadOptions = {},
): Observable<ChunkEvent<unknown>> {
  if (typeof store !== 'object' || store === null || typeof store.read !== 'function') {
    throw optionError('store', 'a RunStore', store, 'argument');
  }
  if (typeof runId !== 'string' || runId === '')
    throw optionError('runId', 'a non-empty string', runId, 'argument');
  const after = readAfter(options);
  // A read that starts after the final event is empty; any other must end with the final event
  // (checked below, since checkSequence would also reject the empty one).
  const check = checkSequence<ChunkEvent<unknown>>({ start: after + 1, requireFinal: false });
  return new Observable<ChunkEvent<unknown>>((subscriber) => {
    const demand = currentDemand();
    const events = new Observable<ChunkEvent<unknown>>((inner) => {
      let next = after + 1;
      let final = false;
      return store.read(runId, { after }).subscribe(
        createOperatorSubscriber<RunRecord>(
          inner,
          (record) => {
            if (record.type === 'events') {
              for (const event of record.events) {
                next = event.sequence + 1;
                final = event.isFinal;
                inner.next(event);
              }
            } else if (record.type === 'gap') {
              inner.error(
                new SequenceError(
                  { rule: 'gap', expected: record.from, received: record.to + 1 },
                  `Sequences ${record.from}..${record.to} of run ${runId} are no longer retained (trimmed by the store's retention)`,
                ),
              );
            } else {
              inner.error(runFailureError(record.failure, runId));
            }
          },
          () => {
            if (next > after + 1 && !final) {
              inner.error(new SequenceError({ rule: 'missing-final', expected: next, received: undefined }));
            } else inner.complete();
          },
        ),
      );
    });
    return subscribeWithDemand(demand, () => events.pipe(check).subscribe(subscriber));
  });
}
