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
  /** The cancel request it got while running (`{ ...details, reason }`): what an owner that died was asked. */
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

/** A cancel request's details, put next to `reason` in the final `end` event's metadata (`{ by: 'page' }`). */
export type CancelDetails = Readonly<Record<string, unknown>>;

/** Options of {@link RunStore.read}. */
export interface RunReadOptions {
  /** Read the events after this sequence; omitted (or `-1`): from the start. */
  readonly after?: number;
}

/** The writing side of one run ({@link toRunStore} drives it); the store acknowledges a bounded number at a time. */
export interface RunWriter {
  readonly runId: string;
  /** Paused while the writer holds as many unacknowledged events as it may: memory stays bounded. */
  readonly demand: Demand;
  /**
   * Settles once the run's end is acknowledged. Rejects with `OWNER_LOST` when the store ended the
   * run because this writer's lease expired, or with a `RunStoreError` when it failed a write.
   */
  readonly ended: Promise<void>;
  /** Appends the next event (its sequence must be the next one). Throws after the end. */
  append(event: ChunkEvent<unknown>): void;
  /** Ends the run with a failure, after the events appended so far. */
  fail(error: unknown): void;
  /** Calls `listener` once when a {@link RunStore.cancel} arrives, from any instance; returns an unlisten. */
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
  /** The run's records after `options.after`, live until its end; cold and demand-aware. `RUN_NOT_FOUND` if unknown. */
  read(runId: string, options?: RunReadOptions): Observable<RunRecord>;
  /**
   * Asks the run's owner, wherever it runs, to stop its source and end with a final `end` event
   * (metadata `{ ...details, reason }`). `false` when the run is unknown, ended or has no owner.
   */
  cancel(runId: string, reason?: string, details?: CancelDetails): Promise<boolean>;
  /** What the store knows about the run, or `undefined` for an unknown one. */
  info(runId: string): Promise<RunInfo | undefined>;
  /**
   * The run's newest record at once (`undefined` while it has none). Like a reader, it ends a run
   * whose owner's lease expired with `OWNER_LOST`. Rejects with `RUN_NOT_FOUND` for an unknown run.
   */
  lastRecord(runId: string): Promise<LastRecord | undefined>;
  /** The ids held that start with `prefix`, unordered (ended runs until retention). `sluice/mcp` lists tasks with it. */
  runIds?(prefix: string): Promise<string[]>;
  /** How long an ended run stays readable, in ms (its retention), where the store has one. */
  readonly retainMs?: number;
  /** Releases the store's resources (connections, timers). */
  close(): Promise<void>;
}
