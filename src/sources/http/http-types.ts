import type { SchedulerLike } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import type { Demand } from '../../core/demand.js';

/**
 * The content of the first event of an {@link http} stream (`kind: 'response'`): what the
 * server answered, before any byte of the body.
 */
export interface HttpResponseInfo {
  readonly status: number;
  readonly statusText: string;
  /** Lower-case header names; repeated headers are joined with `', '`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The final URL, after redirects. */
  readonly url: string;
}

/** The content of the final event of an {@link http} stream (`kind: 'end'`). */
export interface HttpEndInfo {
  /** The response status (also in the `response` event). */
  readonly status: number;
  /** Body bytes read, as `fetch` delivers them (after any `content-encoding` was undone). */
  readonly bytes: number;
  /** Time from subscribe to the end of the body, on the source's scheduler. */
  readonly durationMs: number;
}

/** The first event: `{ sequence: 0, kind: 'response', content: HttpResponseInfo, isFinal: false }`. */
export interface HttpResponseEvent extends ChunkEvent<HttpResponseInfo> {
  readonly kind: 'response';
  readonly content: HttpResponseInfo;
  readonly isFinal: false;
}

/** A piece of the body: a `Uint8Array` read, or (with `lines: true`) one decoded line. */
export interface HttpBodyEvent<B extends Uint8Array | string = Uint8Array | string> extends ChunkEvent<B> {
  readonly kind: 'body';
  readonly content: B;
  readonly isFinal: false;
}

/** The last event: `{ kind: 'end', content: HttpEndInfo, isFinal: true }`. */
export interface HttpEndEvent extends ChunkEvent<HttpEndInfo> {
  readonly kind: 'end';
  readonly content: HttpEndInfo;
  readonly isFinal: true;
}

/**
 * An event of an {@link http} stream: one `response`, then `body` chunks, then one final `end`.
 * `B` is `Uint8Array` by default and `string` with `lines: true`.
 */
export type HttpEvent<B extends Uint8Array | string = Uint8Array | string> =
  | HttpResponseEvent
  | HttpBodyEvent<B>
  | HttpEndEvent;

/**
 * Options of {@link http}. Validated when `http()` is called (a bad one throws a `TypeError`
 * naming it), before anything is fetched.
 */
export interface HttpOptions {
  /** Emit the body as decoded UTF-8 lines (each with its `\n`) instead of raw reads. Default `false`. */
  readonly lines?: boolean;
  /** With `lines: true`, a longer line is cut into pieces marked `metadata.partial: true`. Default 65 536. */
  readonly maxLineBytes?: number;
  /** Wall-clock limit for the whole exchange, in ms; `0` means none. Default `0`. */
  readonly timeoutMs?: number;
  /** Error with code `HTTP_STATUS` on a non-2xx status. Default `true`. */
  readonly reject?: boolean;
  /** The scheduler that measures time (timeout, `durationMs`). Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Who may pause the body reads. Default: the consumer's demand ({@link demandOf}). */
  readonly demand?: Demand;
  /** The `fetch` implementation. Default `globalThis.fetch`. */
  readonly fetch?: typeof globalThis.fetch;
  /**
   * Aborting it cancels the exchange (execa's name): the request is aborted (the connection
   * closed) and the stream errors at once with a `CancelledError` (code `CANCELLED`) whose
   * `info.result` is what was received so far (status, bytes). Already aborted: nothing is fetched.
   */
  readonly cancelSignal?: AbortSignal;
  /**
   * Send the exchange's trace context as the W3C `traceparent` (and `tracestate`) request headers
   * when it is traced, so that a traced server joins the trace (default `true`; a header of the
   * same name in `init.headers` wins). See docs/tracing.md.
   */
  readonly propagateTrace?: boolean;
}
