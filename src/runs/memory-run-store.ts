import { asyncScheduler, Observable, type SchedulerLike } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { currentDemand, type Demand } from '../core/demand.js';
import { RunStoreError } from '../core/errors/run-store-error.js';
import { SequenceError } from '../core/errors/sequence-error.js';
import { optionError } from '../core/option-error.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { readAfter } from './read-after.js';
import { toRunFailure } from './run-failure.js';
import type { RunFailure, RunRecord } from './run-record.js';
import type { RunInfo, RunReadOptions, RunStore, RunWriter } from './run-store.js';

/**
 * Options of {@link MemoryRunStore}.
 *
 * @example
 * ```ts
 * import { MemoryRunStore, type MemoryRunStoreOptions } from 'sluice';
 * const options: MemoryRunStoreOptions = { maxEvents: 5000, retainMs: 60_000 };
 * const store = new MemoryRunStore(options);
 * ```
 */
export interface MemoryRunStoreOptions {
  /** Events retained per run; older ones are trimmed (a reader that needs them gets a `gap`). Default `10_000`. */
  readonly maxEvents?: number;
  /** How long an ended run stays readable, in ms. Default `3_600_000` (one hour). */
  readonly retainMs?: number;
  /** The clock of `retainMs`. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

interface MemoryRun {
  readonly id: string;
  readonly events: ChunkEvent<unknown>[];
  head: number;
  next: number;
  failure: RunFailure | undefined;
  ended: boolean;
  endedAt: number;
  owner: string;
  readonly changed: Set<() => void>;
  readonly cancel: Set<(reason: string) => void>;
}

const FLOWING: Demand = { paused: false, onChange: () => () => {} };
let writers = 0;

/**
 * The embedded run store: runs live in this process's memory, each bounded to its newest
 * `maxEvents` events, and an ended run is dropped `retainMs` after its end (checked lazily on each
 * call, so the store holds no timer). Appends never pause (memory is the bound). Use it in one
 * process; use `RedisRunStore` (`sluice/redis`) to follow and cancel runs from other machines.
 *
 * @example
 * ```ts
 * import { exec, fromRunStore, MemoryRunStore, toRunStore } from 'sluice';
 * const store = new MemoryRunStore({ maxEvents: 1000 });
 * exec('ls').pipe(toRunStore(store, 'ls-1')).subscribe();
 * fromRunStore(store, 'ls-1', { after: 3 }).subscribe((event) => console.log(event.sequence)); // 4, 5, …
 * ```
 */
export class MemoryRunStore implements RunStore {
  readonly #runs = new Map<string, MemoryRun>();
  /** Ended runs in the order they ended (so in `endedAt` order): the sweep takes from the front. */
  #ended: MemoryRun[] = [];
  readonly #maxEvents: number;
  readonly #retainMs: number;
  readonly #scheduler: SchedulerLike;

  constructor(options: MemoryRunStoreOptions = {}) {
    if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
    rejectUnknownOptions(options, ['maxEvents', 'retainMs', 'scheduler']);
    const { maxEvents = 10_000, retainMs = 3_600_000, scheduler = asyncScheduler } = options;
    if (!Number.isSafeInteger(maxEvents) || maxEvents < 1) {
      throw optionError('maxEvents', 'a positive integer', maxEvents);
    }
    if (!Number.isSafeInteger(retainMs) || retainMs < 0) {
      throw optionError('retainMs', 'a non-negative integer', retainMs);
    }
    if (typeof scheduler?.now !== 'function' || typeof scheduler.schedule !== 'function') {
      throw optionError('scheduler', 'a SchedulerLike', scheduler);
    }
    this.#maxEvents = maxEvents;
    this.#retainMs = retainMs;
    this.#scheduler = scheduler;
  }

  /** How many runs the store holds right now (ended ones included until `retainMs` passes). */
  get size(): number {
    this.#sweep();
    return this.#runs.size;
  }

  openWriter(runId: string): RunWriter {
    this.#sweep();
    if (this.#runs.has(runId)) {
      throw new RunStoreError('RUN_EXISTS', `Run ${runId} already has a writer`, { info: { runId } });
    }
    writers += 1;
    const run: MemoryRun = {
      id: runId,
      events: [],
      head: 0,
      next: 0,
      failure: undefined,
      ended: false,
      endedAt: 0,
      owner: `memory-${writers}`,
      changed: new Set(),
      cancel: new Set(),
    };
    this.#runs.set(runId, run);
    let resolveEnded: () => void = () => {};
    const ended = new Promise<void>((resolve) => {
      resolveEnded = resolve;
    });
    const end = () => {
      run.ended = true;
      run.endedAt = this.#scheduler.now();
      run.cancel.clear();
      this.#ended.push(run);
      resolveEnded();
    };
    return {
      runId,
      demand: FLOWING,
      ended,
      append: (event) => {
        if (run.ended) {
          throw new SequenceError({ rule: 'after-final', expected: undefined, received: event.sequence });
        }
        if (event.sequence !== run.next) {
          const rule = event.sequence > run.next ? 'gap' : 'order';
          throw new SequenceError({ rule, expected: run.next, received: event.sequence });
        }
        run.events.push(event);
        run.next += 1;
        if (run.events.length - run.head > this.#maxEvents) this.#trim(run);
        if (event.isFinal) end();
        this.#notify(run);
      },
      fail: (error) => {
        if (run.ended) return;
        run.failure = toRunFailure(error);
        end();
        this.#notify(run);
      },
      onCancel: (listener) => {
        if (run.ended) return () => {};
        const once = (reason: string) => {
          run.cancel.delete(once);
          listener(reason);
        };
        run.cancel.add(once);
        return () => run.cancel.delete(once);
      },
      close: () => run.cancel.clear(),
    };
  }

  read(runId: string, options: RunReadOptions = {}): Observable<RunRecord> {
    const after = readAfter(options);
    return new Observable<RunRecord>((subscriber) => {
      const demand = currentDemand();
      this.#sweep();
      const run = this.#runs.get(runId);
      if (run === undefined) {
        subscriber.error(
          new RunStoreError('RUN_NOT_FOUND', `Run ${runId} does not exist`, { info: { runId } }),
        );
        return undefined;
      }
      let cursor = after + 1;
      let pumping = false;
      const pump = () => {
        if (pumping) return;
        pumping = true;
        try {
          while (!subscriber.closed && demand?.paused !== true) {
            const oldest = run.next - (run.events.length - run.head);
            if (cursor < oldest) {
              subscriber.next({ type: 'gap', from: cursor, to: oldest - 1 });
              cursor = oldest;
            } else if (cursor < run.next) {
              const event = run.events[run.head + (cursor - oldest)] as ChunkEvent<unknown>;
              cursor += 1;
              subscriber.next({ type: 'events', events: [event] });
              if (event.isFinal) subscriber.complete();
            } else if (run.failure !== undefined) {
              subscriber.next({ type: 'failure', failure: run.failure });
              subscriber.complete();
            } else if (run.ended) {
              subscriber.complete(); // the cursor is past the final event: nothing follows
            } else {
              return;
            }
          }
        } finally {
          pumping = false;
        }
      };
      run.changed.add(pump);
      const stopDemand = demand?.onChange((paused) => {
        if (!paused) pump();
      });
      pump();
      return () => {
        run.changed.delete(pump);
        stopDemand?.();
      };
    });
  }

  async cancel(runId: string, reason = 'cancelled'): Promise<boolean> {
    this.#sweep();
    const run = this.#runs.get(runId);
    if (run === undefined || run.ended || run.cancel.size === 0) return false;
    for (const listener of [...run.cancel]) listener(reason);
    return true;
  }

  async info(runId: string): Promise<RunInfo | undefined> {
    this.#sweep();
    const run = this.#runs.get(runId);
    if (run === undefined) return undefined;
    return {
      state: run.ended ? 'ended' : 'running',
      next: run.next,
      oldest: run.next - (run.events.length - run.head),
      failure: run.failure,
      owner: run.owner,
    };
  }

  async close(): Promise<void> {
    for (const run of this.#runs.values()) {
      run.cancel.clear();
      run.changed.clear();
    }
    this.#runs.clear();
    this.#ended = [];
  }

  #trim(run: MemoryRun): void {
    run.head = run.events.length - this.#maxEvents;
    if (run.head >= 1024 && run.head * 2 >= run.events.length) {
      run.events.splice(0, run.head);
      run.head = 0;
    }
  }

  #notify(run: MemoryRun): void {
    for (const listener of [...run.changed]) listener();
  }

  #sweep(): void {
    const now = this.#scheduler.now();
    let expired = 0;
    while (
      expired < this.#ended.length &&
      now - (this.#ended[expired] as MemoryRun).endedAt >= this.#retainMs
    ) {
      const run = this.#ended[expired] as MemoryRun;
      if (this.#runs.get(run.id) === run) this.#runs.delete(run.id);
      expired += 1;
    }
    if (expired > 0) this.#ended = this.#ended.slice(expired);
  }
}
