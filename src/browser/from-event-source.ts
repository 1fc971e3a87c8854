import { asyncScheduler, type Observable, type SchedulerLike } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { isSchedulerLike } from '../core/is-scheduler-like.js';
import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
import { optionError } from '../core/option-error.js';
import { readBoolean } from '../core/read-boolean.js';
import { readFunction } from '../core/read-function.js';
import { readInteger } from '../core/read-integer.js';
import { readOption } from '../core/read-option.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { followSse } from './follow-sse.js';

/** The part of the WHATWG `EventSource` that {@link fromEventSource} uses. */
export interface EventSourceLike {
  /** `2`: closed, it will not reconnect by itself. */
  readonly readyState: number;
  addEventListener(type: string, listener: (event: any) => void): void;
  close(): void;
}

/** The global `EventSource`, or a test double. */
export type EventSourceConstructor = new (
  url: string,
  init?: { withCredentials?: boolean },
) => EventSourceLike;

/** Options of {@link fromEventSource}. */
export interface FromEventSourceOptions {
  /**
   * The event kinds to listen for. Default {@link DEFAULT_SSE_KINDS}. An event of another kind is
   * missed, and the next one then fails the sequence check (never a silent hole).
   */
  readonly kinds?: readonly string[];
  /** Consecutive dropped connections without an event before the stream errors. Default `5`. */
  readonly maxRetries?: number;
  /** Delay before reconnecting when the `EventSource` gave up by itself, in ms. Default `1000`. */
  readonly retryMs?: number;
  readonly withCredentials?: boolean;
  /** Default: `globalThis.EventSource`. */
  readonly EventSource?: EventSourceConstructor;
  /** The clock of the reconnection delay. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /**
   * Follow from after this sequence: the first request resumes after it and the stream starts at
   * `after + 1` (e.g. to go on past a `gap`). Default: from the start.
   */
  readonly after?: number;
}

/** The kinds `fromEventSource` listens for by default: those of sluice's sources and sentinels. */
export const DEFAULT_SSE_KINDS: readonly string[] = [
  'stdout',
  'stderr',
  'exit',
  'end',
  'body',
  'response',
  'chunk',
];

const CLOSED = 2;

/**
 * Follows a `toServerSentEvents` stream with an `EventSource`, as an `Observable` of the same
 * sequenced chunk events:
 *
 * - **resume**: when the connection drops, the `EventSource` reconnects by itself with
 *   `Last-Event-ID`; when it gives up (the server closed with an error status) a new one is opened
 *   after `retryMs` with `?lastEventId=<last sequence>`. Either way the server sends exactly the
 *   events after the last one received;
 * - **checked**: the whole stream goes through `checkSequence` — a `gap` event from the server
 *   (evicted events) or a skipped sequence is a `SequenceError`, never a hole; a `failure` event
 *   is a `SluiceError` with the server's code; a malformed frame an `InvalidFrameError`;
 * - **ends**: completes on the final event; errors after `maxRetries` consecutive drops;
 * - **cancel**: unsubscribing closes the `EventSource` (detach: the server-side run goes on).
 *
 * Options are validated before anything connects (a `TypeError`).
 *
 * @example
 * ```ts
 * import { fromEventSource } from 'sluice/browser';
 * const subscription = fromEventSource('/runs/1/events').subscribe({
 *   next: (event) => render(event.kind, event.content),
 *   complete: () => status('done'),
 *   error: (error) => status(error.message),
 * });
 * // later: subscription.unsubscribe(); // closes the connection
 * ```
 */
export function fromEventSource(
  url: string,
  options?: FromEventSourceOptions,
): Observable<ChunkEvent<unknown>> {
  if (typeof url !== 'string') throw optionError('url', 'a string', url, 'argument');
  rejectUnknownOptions(options, [
    'kinds',
    'maxRetries',
    'retryMs',
    'withCredentials',
    'EventSource',
    'scheduler',
    'after',
  ]);
  const kinds = readOption<readonly string[]>(
    options,
    'kinds',
    (value) => Array.isArray(value) && value.every((kind) => typeof kind === 'string' && kind !== ''),
    'an array of event names',
    DEFAULT_SSE_KINDS,
  );
  const maxRetries = readInteger(options, 'maxRetries', 5);
  const after = readInteger(options, 'after', undefined);
  const retryMs = readInteger(options, 'retryMs', 1000, { max: MAX_DELAY_MS });
  const withCredentials = readBoolean(options, 'withCredentials', false);
  const scheduler = readOption(options, 'scheduler', isSchedulerLike, 'a SchedulerLike', asyncScheduler);
  const EventSourceClass = readFunction<EventSourceConstructor | undefined>(
    options,
    'EventSource',
    (globalThis as { EventSource?: EventSourceConstructor }).EventSource,
  );
  if (typeof EventSourceClass !== 'function') {
    throw new TypeError(
      'Expected the `EventSource` option to be an EventSource constructor: there is no global one',
    );
  }
  return followSse(
    (lastEventId, handlers) => {
      const source = new EventSourceClass(withLastEventId(url, lastEventId), { withCredentials });
      const onMessage = (event: { type: string; data: string; lastEventId: string }) =>
        handlers.message({ event: event.type, data: event.data, lastEventId: event.lastEventId });
      for (const name of new Set(['message', 'gap', 'failure', ...kinds]))
        source.addEventListener(name, onMessage);
      source.addEventListener('error', (event) => handlers.dropped(event, source.readyState !== CLOSED));
      return () => source.close();
    },
    { maxRetries, retryMs, scheduler, url, after },
  );
}

/** `url` with `lastEventId` set as a query parameter, if any. */
function withLastEventId(url: string, lastEventId: number | undefined): string {
  if (lastEventId === undefined) return url;
  const hash = url.indexOf('#');
  const base = hash === -1 ? url : url.slice(0, hash);
  const separator = base.includes('?') ? '&' : '?';
  return `${base}${separator}lastEventId=${lastEventId}${hash === -1 ? '' : url.slice(hash)}`;
}
