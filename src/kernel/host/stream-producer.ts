import type { Observable, SchedulerLike } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import type { JsonValue } from '../protocol/json-value.js';

/** What the host tells a producer or a handler about the call it serves. */
export interface HostcallContext {
  readonly extensionId: string;
  readonly callId: string;
  readonly kind: string;
  /** The host's clock (timeouts of producers should run on it). */
  readonly scheduler: SchedulerLike;
}

/**
 * Produces the chunks of a streaming hostcall: a cold `Observable` of chunk events built from
 * the (already validated) payload. The host subscribes with its channel's `Valve` as the
 * demand (a producer finds it with `demandOf(subscriber)`) and unsubscribes to cancel, so a
 * producer must stop reading while the demand is paused and free everything (kill the process group, abort the request) on
 * unsubscribe.
 *
 * The host keeps each event's `content` as the wire `chunk` (it must be JSON) and its `isFinal`;
 * it renumbers the `sequence` itself. An event with `isFinal: true` is the final chunk, sent
 * when the producer completes (`content: null` makes it the null sentinel); a producer that goes
 * on after it instead (several runs flattened with `concatMap`) ends the stream with
 * `Error { code: 'STREAM_SEQUENCE' }`: pipe such runs through `joinRuns()`. Completing without a
 * final event makes the host send the sentinel; an error becomes an `Error` outcome whose `code`
 * is the error's `code` (or `HOSTCALL_FAILED`).
 */
export type StreamProducer = (
  payload: Readonly<Record<string, unknown>>,
  context: HostcallContext,
) => Observable<ChunkEvent<JsonValue>>;
