import type { Observable, SchedulerLike } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import type { HostcallOutcome } from '../protocol/hostcall-outcome.js';
import type { HostcallKind } from '../protocol/hostcall-request.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { Macrotask, MacrotaskScheduler } from '../scheduler/macrotask-scheduler.js';

/**
 * The host side of the hostcall protocol (see {@link createHost}). A call is identified by
 * **(extensionId, callId)**, so extensions never reach each other's calls.
 */
export interface Host {
  readonly scheduler: MacrotaskScheduler<HostcallOutcome>;
  /** Outcomes dropped because their extension had no delivery connected. */
  readonly stats: { readonly undeliverable: number };
  /**
   * Starts a hostcall of `extensionId`; its outcome(s) arrive through the scheduler. A bad
   * payload completes with `INVALID_REQUEST`; only a request without a usable `callId` throws
   * (an `InvalidRequestError`), as there is nothing to complete.
   */
  hostcall(extensionId: string, request: unknown): void;
  /** Gives a stream `count` more credit (default 1; `Infinity` = flowing). Unknown/finished call: no-op. */
  pull(extensionId: string, callId: string, count?: number): void;
  /** Cancels a stream: kill the producer, drop the channel, enqueue the null final chunk. Unknown/finished: no-op. */
  cancelStream(extensionId: string, callId: string): void;
  /** Cancels every active stream of `extensionId`; other extensions' streams are untouched. */
  unloadExtension(extensionId: string): void;
  /** Serves a non-streaming kind (replacing the previous handler); returns a function that removes it. */
  register(kind: HostcallKind, handler: HostcallHandler): () => void;
  /** Connects the delivery of an extension's outcomes and returns its side of the link. */
  connect(extensionId: string, deliver: HostDelivery): HostConnection;
  /** The live stream of `callId` of `extensionId`, if any (for inspection). */
  stream(extensionId: string, callId: string): HostStream | undefined;
  /** The active streams, oldest first (only those of `extensionId` when given). */
  activeStreams(extensionId?: string): readonly { readonly extensionId: string; readonly callId: string }[];
}

/** Options of {@link createHost}. */
export interface HostOptions {
  /** The macrotask scheduler completions go through. Default: a real-time one (`createMacrotaskScheduler()`). */
  readonly scheduler?: MacrotaskScheduler<HostcallOutcome>;
  /** Where stall warnings and failed deliveries go. Default `console`. */
  readonly logger?: HostLogger;
  /** Streaming producers of `exec` / `http` (default: the `exec` and `http` sources). */
  readonly producers?: Partial<Record<'exec' | 'http', StreamProducer>>;
  /** Handlers of non-streaming kinds (default: `exec` and `http` run to completion; others unhandled). */
  readonly handlers?: Partial<Record<HostcallKind, HostcallHandler>>;
}

/** One extension's link to the host, what its bridge calls: every method acts on this extension's calls only. */
export interface HostConnection {
  send(request: unknown): void;
  pull(callId: string, count: number): void;
  /** Unknown, finished or another extension's call: no-op. */
  cancelStream(callId: string): void;
  /** Stops delivering to this extension (later outcomes for it are dropped and counted). */
  disconnect(): void;
}

/** Receives one extension's macrotasks in `seq` order; if it throws, the host logs and goes on. */
export type HostDelivery = (task: Macrotask<HostcallOutcome>) => void;

/** Where the host reports a stalled stream or a delivery that threw. `console` fits. */
export interface HostLogger {
  warn(message: string, details?: Readonly<Record<string, unknown>>): void;
}

/** Why a stream was cancelled: `cancelStream`, the stall timer or `unloadExtension`. */
export type CancelReason = 'cancelled' | 'stalled' | 'unloaded';

/**
 * Serves a non-streaming hostcall kind: its value completes the call with `Success`, what it
 * throws with `Error` (the error's `code`, else `HOSTCALL_FAILED`). A synchronous return is
 * enqueued at once (deterministic in virtual time).
 */
export type HostcallHandler = (
  payload: Readonly<Record<string, unknown>>,
  context: HostcallContext,
) => JsonValue | Promise<JsonValue>;

/** The call a producer or a handler serves. */
export interface HostcallContext {
  readonly extensionId: string;
  readonly callId: string;
  readonly kind: string;
  /** The host's clock: timeouts of producers run on it. */
  readonly scheduler: SchedulerLike;
}

/**
 * Produces the chunks of a streaming hostcall, cold. The host subscribes with its channel's
 * `Valve` as the demand (a producer stops reading while paused) and renumbers `sequence`. A
 * producer that goes on after its final event ends the stream with `STREAM_SEQUENCE` (pipe several
 * runs through `joinRuns()`); completing without one sends the null sentinel.
 */
export type StreamProducer = (
  payload: Readonly<Record<string, unknown>>,
  context: HostcallContext,
) => Observable<ChunkEvent<JsonValue>>;

/** A live streaming call on the host side. */
export interface HostStream {
  readonly extensionId: string;
  readonly callId: string;
  /** Chunks produced and not yet moved to the scheduler queue. */
  readonly channelled: number;
  /** Chunks in the scheduler queue, not yet delivered. */
  readonly queued: number;
  /** Chunks the extension asked for that the producer has not supplied yet (`Infinity` when flowing). */
  readonly credit: number;
  /** Whether the producer is paused (channelled + queued ≥ buffer size). */
  readonly paused: boolean;
  /** The last outcome has been enqueued. */
  readonly closed: boolean;
  /** How it ended: `'final'`, `'error'`, `'overflow'` or a {@link CancelReason}; `undefined` while open. */
  readonly endReason: CancelReason | 'final' | 'error' | 'overflow' | undefined;
  start(producer: Observable<ChunkEvent<JsonValue>>): void;
  pull(count: number): void;
  /** Stops the producer, drops the channel, enqueues the null final chunk. No-op once closed. */
  cancel(reason: CancelReason): void;
}
