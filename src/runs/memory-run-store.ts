import { asyncScheduler, Observable, type SchedulerLike } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { deferred } from '../core/deferred.js';
import { Valve } from '../core/demand.js';
import { RunStoreError } from '../core/errors/run-store-error.js';
import { optionError } from '../core/option-error.js';
import { readInteger } from '../core/read-integer.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { demandOf } from '../core/subscriber-chain.js';
import { readAfter } from './follow-run.js';
import type { RunRecord } from './run-record.js';
import type {
  CancelDetails,
  LastRecord,
  RunInfo,
  RunReadOptions,
  RunStore,
  RunWriter,
  RunWriterOptions,
} from './run-store.js';
import { ReplayLog } from './sse/replay-log.js';
import { decodeChunkFrame } from './sse/run-frames.js';

/** Options of {@link MemoryRunStore}. */
export interface MemoryRunStoreOptions {
  /** Events retained per run; older ones are trimmed (a reader that needs them gets a `gap`). Default `10_000`. */
  readonly maxEvents?: number;
  /** Bytes of events (as SSE frames) retained per run; the newest event always stays. Default `8 MiB`. */
  readonly maxBytes?: number;
  /** How long an ended run stays readable, in ms. Default `3_600_000` (one hour). */
  readonly retainMs?: number;
  /** The clock of `retainMs` (and of {@link RunInfo.startedAt}). Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

interface MemoryReader {
  cursor: number;
}

interface MemoryRun {
  readonly id: string;
  readonly log: ReplayLog;
  readonly owner: string;
  readonly label: string | undefined;
  readonly startedAt: number;
  endedAt: number;
  /** The writer's demand: paused while the log is full and every reader still needs its oldest event. */
  readonly valve: Valve;
  readonly readers: Set<MemoryReader>;
  readonly changed: Set<() => void>;
  readonly cancel: Set<(reason: string, details: CancelDetails) => void>;
  cancelRequest: CancelDetails | undefined;
}

let writers = 0;

/** One retained event as a read record: its SSE frame at hand, the event decoded only if asked. */
class FrameRecord {
  readonly type = 'events';
  readonly frames: readonly [string];
  #events: readonly [ChunkEvent<unknown>] | undefined;

  constructor(frame: string) {
    this.frames = [frame];
  }

  get events(): readonly [ChunkEvent<unknown>] {
    this.#events ??= [decodeChunkFrame(this.frames[0])];
    return this.#events;
  }
}

/**
 * The embedded run store: each run in a bounded {@link ReplayLog} of SSE frames, dropped
 * `retainMs` after its end (checked lazily, no timer); content JSON cannot encode fails the run.
 * A writer pauses only while its log is full *and* every reader needs its oldest event (a slower
 * reader gets a `gap`). For other machines, `RedisRunStore` (`sluice/redis`).
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
  /** In the order they ended: the sweep takes from the front. */
  #ended: MemoryRun[] = [];
  readonly #maxEvents: number;
  readonly #maxBytes: number;
  readonly #retainMs: number;
  readonly #scheduler: SchedulerLike;

  constructor(options: MemoryRunStoreOptions = {}) {
    if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
    rejectUnknownOptions(options, ['maxEvents', 'maxBytes', 'retainMs', 'scheduler']);
    const { scheduler = asyncScheduler } = options;
    this.#maxEvents = readInteger(options, 'maxEvents', 10_000, { min: 1 });
    this.#maxBytes = readInteger(options, 'maxBytes', 8 * 1024 * 1024, { min: 1 });
    this.#retainMs = readInteger(options, 'retainMs', 3_600_000);
    if (typeof scheduler?.now !== 'function' || typeof scheduler.schedule !== 'function') {
      throw optionError('scheduler', 'a SchedulerLike', scheduler);
    }
    this.#scheduler = scheduler;
  }

  get size(): number {
    this.#sweep();
    return this.#runs.size;
  }

  openWriter(runId: string, options: RunWriterOptions = {}): RunWriter {
    this.#sweep();
    if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
    rejectUnknownOptions(options, ['label']);
    if (options.label !== undefined && typeof options.label !== 'string') {
      throw optionError('label', 'a string', options.label);
    }
    if (this.#runs.has(runId)) {
      throw new RunStoreError('RUN_EXISTS', `Run ${runId} already has a writer`, { info: { runId } });
    }
    writers += 1;
    const run: MemoryRun = {
      id: runId,
      log: new ReplayLog({ maxEvents: this.#maxEvents, maxBytes: this.#maxBytes }),
      owner: `memory-${writers}`,
      label: options.label,
      startedAt: this.#scheduler.now(),
      endedAt: 0,
      valve: new Valve(),
      readers: new Set(),
      changed: new Set(),
      cancel: new Set(),
      cancelRequest: undefined,
    };
    this.#runs.set(runId, run);
    const ended = deferred<void>();
    const end = () => {
      run.endedAt = this.#scheduler.now();
      run.cancel.clear();
      this.#ended.push(run);
      ended.resolve();
    };
    return {
      runId,
      demand: run.valve,
      ended: ended.promise,
      append: (event) => {
        run.log.append(event); // checks the sequence rules; throws what JSON.stringify throws
        if (event.isFinal) end();
        this.#notify(run);
      },
      fail: (error) => {
        if (run.log.ended) return;
        run.log.fail(error);
        end();
        this.#notify(run);
      },
      onCancel: (listener) => {
        if (run.log.ended) return () => {};
        const once = (reason: string, details: CancelDetails) => {
          run.cancel.delete(once);
          listener(reason, details);
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
      const demand = demandOf(subscriber);
      this.#sweep();
      const run = this.#runs.get(runId);
      if (run === undefined) {
        subscriber.error(
          new RunStoreError('RUN_NOT_FOUND', `Run ${runId} does not exist`, { info: { runId } }),
        );
        return undefined;
      }
      const log = run.log;
      const reader: MemoryReader = { cursor: after + 1 };
      let pumping = false;
      const pump = () => {
        if (pumping) return;
        pumping = true;
        try {
          while (!subscriber.closed && demand?.paused !== true) {
            const oldest = log.oldest;
            if (reader.cursor < oldest) {
              subscriber.next({ type: 'gap', from: reader.cursor, to: oldest - 1 });
              reader.cursor = oldest;
            } else if (reader.cursor < log.next) {
              const entry = log.get(reader.cursor);
              reader.cursor += 1;
              if (entry === undefined) continue; // unreachable: the cursor is within the log
              subscriber.next(new FrameRecord(entry.frame));
              if (entry.isFinal) subscriber.complete();
            } else if (log.failureInfo !== undefined) {
              subscriber.next({ type: 'failure', failure: log.failureInfo });
              subscriber.complete();
            } else if (log.ended) {
              subscriber.complete(); // the cursor is past the final event: nothing follows
            } else {
              return;
            }
          }
        } finally {
          pumping = false;
        }
      };
      run.readers.add(reader);
      run.changed.add(pump);
      const stopDemand = demand?.onChange((paused) => {
        if (paused) return;
        pump();
        this.#updateDemand(run);
      });
      pump();
      this.#updateDemand(run);
      return () => {
        run.readers.delete(reader);
        run.changed.delete(pump);
        stopDemand?.();
        this.#updateDemand(run);
      };
    });
  }

  async cancel(runId: string, reason = 'cancelled', details: CancelDetails = {}): Promise<boolean> {
    this.#sweep();
    const run = this.#runs.get(runId);
    if (run === undefined || run.log.ended || run.cancel.size === 0) return false;
    run.cancelRequest = { ...details, reason };
    for (const listener of [...run.cancel]) listener(reason, details);
    return true;
  }

  async info(runId: string): Promise<RunInfo | undefined> {
    this.#sweep();
    const run = this.#runs.get(runId);
    if (run === undefined) return undefined;
    const log = run.log;
    return {
      state: log.ended ? 'ended' : 'running',
      next: log.next,
      oldest: log.oldest,
      failure: log.failureInfo,
      owner: run.owner,
      label: run.label,
      startedAt: run.startedAt,
      cancelRequest: run.cancelRequest,
    };
  }

  async lastRecord(runId: string): Promise<LastRecord | undefined> {
    this.#sweep();
    const log = this.#runs.get(runId)?.log;
    if (log === undefined) {
      throw new RunStoreError('RUN_NOT_FOUND', `Run ${runId} does not exist`, { info: { runId } });
    }
    const failure = log.failureInfo;
    if (failure !== undefined) return { type: 'failure', failure };
    const entry = log.get(log.next - 1); // the newest event is always retained
    return entry === undefined ? undefined : { type: 'event', event: decodeChunkFrame(entry.frame) };
  }

  get retainMs(): number {
    return this.#retainMs;
  }

  /** The replay log of run `runId` (read-only use), or `undefined` for an unknown run. */
  log(runId: string): ReplayLog | undefined {
    this.#sweep();
    return this.#runs.get(runId)?.log;
  }

  async runIds(prefix: string): Promise<string[]> {
    this.#sweep();
    return [...this.#runs.keys()].filter((runId) => runId.startsWith(prefix));
  }

  /** Forgets run `runId` now: new reads get `RUN_NOT_FOUND`, open ones go on. Returns whether it was held. */
  delete(runId: string): boolean {
    const run = this.#runs.get(runId);
    if (run === undefined) return false;
    this.#runs.delete(runId);
    if (run.log.ended) this.#ended = this.#ended.filter((other) => other !== run);
    return true;
  }

  async close(): Promise<void> {
    for (const run of this.#runs.values()) {
      run.cancel.clear();
      run.changed.clear();
    }
    this.#runs.clear();
    this.#ended = [];
  }

  #notify(run: MemoryRun): void {
    for (const pump of [...run.changed]) pump();
    this.#updateDemand(run);
  }

  /** Pauses the writer while its log is full and every reader still needs the oldest event. */
  #updateDemand(run: MemoryRun): void {
    const log = run.log;
    let hold = log.full && !log.ended && run.readers.size > 0;
    if (hold) {
      const oldest = log.oldest;
      for (const reader of run.readers) {
        if (reader.cursor > oldest) {
          hold = false;
          break;
        }
      }
    }
    if (hold) run.valve.pause();
    else run.valve.resume();
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
