import { Observable, Subscription } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { type Demand, Valve } from '../core/demand.js';
import { SequenceError } from '../core/errors/sequence-error.js';
import { optionError } from '../core/option-error.js';
import { readInteger } from '../core/read-integer.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { demandOf, subscribeWithDemand } from '../core/subscriber-chain.js';
import { checkSequence } from '../operators/check-sequence.js';
import { runFailureError } from './run-failure.js';
import type { RunFailure, RunGap, RunRecord } from './run-record.js';
import type { RunReadOptions, RunStore } from './run-store.js';

/** What {@link followRun} tells a follower, in order; a returned promise pauses the reads until it settles. */
export interface RunObserver {
  /** The run's next event. */
  event(event: ChunkEvent<unknown>): Promise<void> | undefined | void;
  /** Optional: the event as its SSE frame instead, where the store keeps them encoded (one encoding for every viewer). */
  frame?(frame: string): Promise<void> | undefined | void;
  /** Events the follower needs were trimmed by the store's retention. */
  gap(gap: RunGap): Promise<void> | undefined | void;
  /** The run ended with this failure after the events before it; `complete` follows. */
  failure(failure: RunFailure): Promise<void> | undefined | void;
  /** The read failed: `RUN_NOT_FOUND`, or the store failed. */
  error(error: unknown): void;
  /** The read ended (after every promise returned settled). */
  complete(): void;
}

/** Options of {@link followRun}: where to start, and the follower's demand. */
export interface FollowRunOptions extends RunReadOptions {
  /** The follower's own demand: the store is read only while it flows. */
  readonly demand?: Demand | null | undefined;
}

/**
 * The one reader of a run's records, under every sink: tells `observer` each, in order, reading
 * only while `options.demand` flows and no promise it returned is pending.
 */
export function followRun(
  store: RunStore,
  runId: string,
  options: FollowRunOptions,
  observer: RunObserver,
  owner = new Subscription(),
): Subscription {
  const pacing = new Pacing(options.demand ?? undefined, owner);
  const record = (record: RunRecord) => {
    if (record.type === 'gap') return pacing.wait(observer.gap({ from: record.from, to: record.to }));
    if (record.type === 'failure') return pacing.wait(observer.failure(record.failure));
    const { frames } = record;
    if (frames !== undefined && observer.frame !== undefined) {
      for (let index = 0; index < frames.length && !owner.closed; index += 1) {
        pacing.wait(observer.frame(frames[index] as string));
      }
      return;
    }
    const { events } = record;
    for (let index = 0; index < events.length && !owner.closed; index += 1) {
      pacing.wait(observer.event(events[index] as ChunkEvent<unknown>));
    }
  };
  const after = options.after ?? -1;
  subscribeWithDemand(
    store.read(runId, { after }),
    pacing.valve,
    {
      next: record,
      error: (error: unknown) => pacing.afterPending(() => observer.error(error)),
      complete: () => pacing.afterPending(() => observer.complete()),
    },
    owner,
  );
  return owner;
}

/** The demand of one {@link followRun}: the follower's own, and the promises its observer returned. */
class Pacing {
  readonly valve = new Valve();
  readonly #demand: Demand | undefined;
  #pending = 0;
  #idle: (() => void) | undefined;

  constructor(demand: Demand | undefined, owner: Subscription) {
    this.#demand = demand;
    if (demand !== undefined) owner.add(demand.onChange(() => this.#update()));
    this.#update();
  }

  wait(settles: Promise<void> | undefined | void): void {
    if (settles === undefined) return;
    this.#pending += 1;
    this.#update();
    const settled = () => {
      this.#pending -= 1;
      this.#update();
      if (this.#pending === 0) this.#idle?.();
    };
    settles.then(settled, settled);
  }

  /** Calls `last` once no promise is pending. */
  afterPending(last: () => void): void {
    if (this.#pending === 0) last();
    else this.#idle = last;
  }

  #update(): void {
    if (this.#pending > 0 || this.#demand?.paused === true) this.valve.pause();
    else this.valve.resume();
  }
}

/** The `after` of a run read's options (`-1`: from the start), checked. Internal. */
export function readAfter(options: RunReadOptions): number {
  if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
  rejectUnknownOptions(options, ['after']);
  return readInteger(options, 'after', -1, { min: -1 });
}

/**
 * Follows run `runId` of `store` from anywhere, after `options.after`, live until the final event;
 * cold, demand-aware, sequence-checked. Errors with a `gap` `SequenceError` for trimmed events,
 * with the run's failure (`OwnerLostError` when its owner died), or with `RUN_NOT_FOUND`.
 *
 * @example
 * ```ts
 * import { fromRunStore } from 'sluice';
 * import { RedisRunStore } from 'sluice/redis';
 * const store = new RedisRunStore({ url: 'redis://127.0.0.1:6379' });
 * fromRunStore(store, 'build-7', { after: 41 }).subscribe((event) => console.log(event.sequence)); // 42, 43, …
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
  const events = new Observable<ChunkEvent<unknown>>((inner) => {
    let next = after + 1;
    let final = false;
    return followRun(
      store,
      runId,
      { after, demand: demandOf(inner) },
      {
        event: (event) => {
          next = event.sequence + 1;
          final = event.isFinal;
          inner.next(event);
        },
        gap: ({ from, to }) =>
          inner.error(
            new SequenceError(
              { rule: 'gap', expected: from, received: to + 1 },
              `Sequences ${from}..${to} of run ${runId} are no longer retained (trimmed by the store's retention)`,
            ),
          ),
        failure: (failure) => inner.error(runFailureError(failure, runId)),
        error: (error) => inner.error(error),
        complete: () => {
          if (next > after + 1 && !final) {
            inner.error(new SequenceError({ rule: 'missing-final', expected: next, received: undefined }));
          } else inner.complete();
        },
      },
    );
  });
  return events.pipe(check);
}

/** Calls `onEnd` once when run `runId` ends, however (final event, failure, gap, read error); unsubscribe to stop. */
export function watchRunEnd(store: RunStore, runId: string, onEnd: () => void): Subscription {
  const owner = new Subscription();
  const end = () => {
    if (owner.closed) return;
    owner.unsubscribe();
    onEnd();
  };
  return followRun(
    store,
    runId,
    {},
    {
      event: (event) => (event.isFinal ? end() : undefined),
      gap: end,
      failure: end,
      error: end,
      complete: end,
    },
    owner,
  );
}
