import type { Observable } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import type { Demand } from '../core/demand.js';
import type { RunFailure, RunRecord } from './run-record.js';

/** What a store knows about a run ({@link RunStore.info}). */
export interface RunInfo {
  /** `queued`: submitted, no writer yet; `running`: a writer owns it; `ended`: final event or failure stored. */
  readonly state: 'queued' | 'running' | 'ended';
  /** The sequence the next event will have (= how many events the run has had). */
  readonly next: number;
  /** The oldest sequence still retained (`next` when none is). */
  readonly oldest: number;
  /** How the run failed, when it ended with a failure rather than a final event. */
  readonly failure: RunFailure | undefined;
  /** The writer's id, once a writer owns the run. */
  readonly owner: string | undefined;
  /** What the writer called the run (a command line, say), if it gave a `label`. */
  readonly label: string | undefined;
  /** When the writer opened the run, in ms on its clock (its scheduler's `now()`), once it has. */
  readonly startedAt: number | undefined;
  /**
   * The cancel request the run got while running ({@link RunStore.cancel}: `{ ...details, reason }`),
   * if any — what a run that ended without its final event (its owner died) was asked for.
   */
  readonly cancelRequest: CancelDetails | undefined;
}

/** The newest record of a run ({@link RunStore.lastRecord}): its last event, or the failure it ended with. */
export type LastRecord =
  | { readonly type: 'event'; readonly event: ChunkEvent<unknown> }
  | { readonly type: 'failure'; readonly failure: RunFailure };

/** Options of {@link RunStore.openWriter} (and of `toRunStore`). */
export interface RunWriterOptions {
  /** What viewers show for the run (the command line, say): {@link RunInfo.label}. */
  readonly label?: string;
}

/**
 * What a cancel request carries besides its reason: details that end up in the final `end`
 * event's metadata next to `reason` (who cancelled, say: `{ by: 'page' }`).
 */
export type CancelDetails = Readonly<Record<string, unknown>>;

/** Options of {@link RunStore.read}. */
export interface RunReadOptions {
  /** Read the events after this sequence; omitted (or `-1`): from the start. */
  readonly after?: number;
}

/**
 * The writing side of one run: what {@link toRunStore} drives. Events go in order; the store
 * acknowledges them asynchronously, a bounded number at a time.
 */
export interface RunWriter {
  readonly runId: string;
  /**
   * Paused while the writer holds as many unacknowledged events as it may (a slow or paused store):
   * a producer subscribed with it stops reading, so memory stays bounded.
   */
  readonly demand: Demand;
  /**
   * Settles once the run's end (its final event, or a failure) is acknowledged. Rejects with
   * `OWNER_LOST` when the store already ended the run because this writer's lease had expired,
   * or with a `RunStoreError` when the store failed or refused a write.
   */
  readonly ended: Promise<void>;
  /** Appends the next event (its sequence must be the next one). Throws after the end. */
  append(event: ChunkEvent<unknown>): void;
  /** Ends the run with a failure, after the events appended so far. */
  fail(error: unknown): void;
  /**
   * Calls `listener` once when a cancel request for this run arrives, from whichever instance
   * sent it ({@link RunStore.cancel}), with its reason and details. Returns a function that stops
   * listening.
   */
  onCancel(listener: (reason: string, details: CancelDetails) => void): () => void;
  /** Stops heartbeats and listeners. A run not ended by then is left to its lease's expiry. */
  close(): void;
}

/**
 * Where runs live so that they can be followed, resumed and cancelled from anywhere: the
 * in-memory store ({@link MemoryRunStore}, one process) or the Redis Streams store
 * (`RedisRunStore` in `sluice/redis`, any number of machines). See `docs/scaling.md`.
 */
export interface RunStore {
  /**
   * Starts writing run `runId` as its owner. `RUN_EXISTS` if the run already has (or had) one:
   * thrown at once by a store that knows synchronously, else the writer's `ended` rejects with it.
   */
  openWriter(runId: string, options?: RunWriterOptions): RunWriter;
  /**
   * The run's records after `options.after`, live until its end: a cold, demand-aware Observable
   * (each subscription reads; a paused consumer stops the reading). Errors with `RUN_NOT_FOUND`
   * for an unknown run.
   */
  read(runId: string, options?: RunReadOptions): Observable<RunRecord>;
  /**
   * Asks the run's owner, wherever it runs, to cancel it (its source is stopped and the run ends
   * with a final `end` event whose metadata is `{ ...details, reason }`). Resolves `false` when
   * the run is unknown or has already ended (or, in the memory store, has no one to cancel it).
   */
  cancel(runId: string, reason?: string, details?: CancelDetails): Promise<boolean>;
  /** What the store knows about the run, or `undefined` for an unknown one. */
  info(runId: string): Promise<RunInfo | undefined>;
  /**
   * The run's newest record, at once (no follow, no new connection): its last event, the failure
   * it ended with, or `undefined` while it has none yet. Like a reader, it gives the lease's
   * verdict: a running run whose owner's lease has expired is ended here with `OWNER_LOST` (that
   * failure is then its last record). Rejects with `RUN_NOT_FOUND` for an unknown run.
   */
  lastRecord(runId: string): Promise<LastRecord | undefined>;
  /**
   * The ids of the runs the store holds whose id starts with `prefix` (in no particular order;
   * ended runs until their retention passes). Optional: `sluice/mcp` lists MCP tasks with it.
   */
  runIds?(prefix: string): Promise<string[]>;
  /** How long an ended run stays readable, in ms (its retention), where the store has one. */
  readonly retainMs?: number;
  /** Releases the store's resources (connections, timers). */
  close(): Promise<void>;
}
