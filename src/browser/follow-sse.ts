import { Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { SluiceError } from '../core/errors/sluice-error.js';
import { checkSequence } from '../operators/check-sequence.js';
import { decodeSseMessage } from '../runs/sse/decode-sse-message.js';
import type { SseMessage } from '../runs/sse/sse-parser.js';

/** What a transport reports about one connection: the callbacks an {@link SseConnect} receives. */
export interface SseConnectionHandlers {
  message(message: SseMessage): void;
  /**
   * The connection failed or ended. `reconnecting: true` means the transport reconnects by
   * itself (a browser `EventSource` does, with `Last-Event-ID`); otherwise {@link followSse} opens
   * a new connection after the retry delay.
   */
  dropped(cause: unknown, reconnecting: boolean): void;
  /** The connection failed in a way retrying cannot fix (an error status): the stream errors. */
  failed(error: unknown): void;
}

/** Opens one connection resuming after `lastEventId`; returns a function that closes it. */
export type SseConnect = (lastEventId: number | undefined, handlers: SseConnectionHandlers) => () => void;

/** Reconnection policy of {@link followSse}, filled in by the checked options of its two callers. */
export interface FollowSseConfig {
  readonly maxRetries: number;
  /** Delay before a reconnection this side makes. */
  readonly retryMs: number;
  readonly scheduler: SchedulerLike;
  /** Named in errors. */
  readonly url: string;
  readonly after?: number | undefined;
}

/**
 * The transport-independent half of `fromEventSource` and `fromFetchStream`: follows a
 * `toServerSentEvents` stream across connections, resuming after the last sequence received (no
 * loss, no duplicate), checked by `checkSequence` (a `gap` is a {@link SequenceError}); a
 * `failure` event is a `SluiceError` with the server's code. After `maxRetries` drops in a row
 * without an event it errors with `HTTP_FAILED`.
 *
 * @example
 * ```ts
 * const events$ = followSse((lastEventId, handlers) => openMyTransport(lastEventId, handlers), {
 *   maxRetries: 5, retryMs: 1000, scheduler: asyncScheduler, url,
 * });
 * ```
 */
export function followSse(connect: SseConnect, config: FollowSseConfig): Observable<ChunkEvent<unknown>> {
  return new Observable<ChunkEvent<unknown>>((subscriber) => {
    let lastEventId: number | undefined = config.after;
    let failures = 0;
    let close: (() => void) | undefined;
    let timer: Subscription | undefined;
    const handlers: SseConnectionHandlers = {
      message: (message) => {
        if (subscriber.closed) return;
        let decoded: ReturnType<typeof decodeSseMessage>;
        try {
          decoded = decodeSseMessage(message);
        } catch (error) {
          subscriber.error(error);
          return;
        }
        if (decoded.type === 'error') {
          subscriber.error(decoded.error);
          return;
        }
        failures = 0;
        lastEventId = decoded.event.sequence;
        subscriber.next(decoded.event);
        if (decoded.event.isFinal) subscriber.complete();
      },
      dropped: (cause, reconnecting) => {
        if (subscriber.closed) return;
        failures += 1;
        if (failures > config.maxRetries) {
          const message = `The SSE stream ${config.url} dropped ${failures} times in a row without an event`;
          subscriber.error(
            new SluiceError('HTTP_FAILED', message, { cause, info: { url: config.url, lastEventId } }),
          );
          return;
        }
        if (reconnecting) return;
        close?.();
        close = undefined;
        timer = config.scheduler.schedule(open, config.retryMs);
      },
      failed: (error) => {
        if (!subscriber.closed) subscriber.error(error);
      },
    };
    function open(): void {
      timer = undefined;
      if (subscriber.closed) return;
      close = connect(lastEventId, handlers);
    }
    open();
    return () => {
      timer?.unsubscribe();
      close?.();
      close = undefined;
    };
  }).pipe(checkSequence({ start: config.after === undefined ? 0 : config.after + 1 }));
}
