import type { SseSink } from '../adapters/sse/sse-sink.js';
import type { SseAttachResult } from '../adapters/sse/sse-stream.js';

/**
 * What the run registry keeps for each run and serves to viewers: the storage seam of
 * `sluice/web`. The default is the in-memory {@link SseStream} that `toServerSentEvents` returns
 * (a bounded replay log per run); another store (one shared by several servers, say) plugs in
 * through the registry's `createStream` option by returning an object of this shape.
 *
 * The contract: the stream subscribes the run's source at most once (from {@link start}) and
 * unsubscribes it when the run ends (its final event, a failure, or {@link cancel}); `cancel`
 * unsubscribes the source first (an `exec` source kills its process group) and then appends the
 * final sentinel `{ kind: 'end', metadata: { reason, ...details } }`.
 *
 * @example
 * ```ts
 * import { toServerSentEvents } from 'sluice/adapters';
 * import { RunRegistry, type RunStream } from 'sluice/web';
 *
 * const registry = new RunRegistry({
 *   createStream: (source, replay): RunStream => toServerSentEvents(source, { replay, heartbeatMs: 10_000 }),
 * });
 * ```
 */
export interface RunStream {
  /** Subscribes the source now (idempotent). */
  start(): unknown;
  /** Attaches a viewer that resumes after `lastEventId` (`undefined`: from the start). */
  attach(sink: () => SseSink, lastEventId: number | undefined): SseAttachResult;
  /** Ends the run early; `false` if it had already ended. */
  cancel(reason?: string, details?: Readonly<Record<string, unknown>>): boolean;
  /** Drops every viewer's connection (the run goes on). */
  disconnectClients(): void;
  /** Whether the run has ended (final event or failure recorded). */
  readonly ended: boolean;
}
