import type { HostcallKind } from '../protocol/hostcall-kind.js';
import type { HostcallOutcome } from '../protocol/hostcall-outcome.js';
import type { MacrotaskScheduler } from '../scheduler/macrotask-scheduler.js';
import type { HostConnection } from './host-connection.js';
import type { HostDelivery } from './host-delivery.js';
import type { HostStream } from './host-stream.js';
import type { HostcallHandler } from './hostcall-handler.js';

/**
 * The host side of the hostcall protocol (docs/protocol.md; see {@link createHost}). A call is identified by
 * **(extensionId, callId)**: every method that names a call takes both, so extensions never
 * reach each other's calls (an extension itself goes through its {@link HostConnection}, which
 * fills in its id).
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
