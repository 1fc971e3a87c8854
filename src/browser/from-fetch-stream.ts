import { asyncScheduler, type Observable, type SchedulerLike } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { SluiceError } from '../core/errors/sluice-error.js';
import { isSchedulerLike } from '../core/is-scheduler-like.js';
import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
import { optionError } from '../core/option-error.js';
import { readFunction } from '../core/read-function.js';
import { readInteger } from '../core/read-integer.js';
import { readOption } from '../core/read-option.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { SseParser } from '../runs/sse/sse-parser.js';
import { followSse } from './follow-sse.js';

/** Options of {@link fromFetchStream}; those it shares with {@link fromEventSource} mean the same. */
export interface FromFetchStreamOptions {
  /** Default `5`. */
  readonly maxRetries?: number;
  /** Delay before reconnecting, in ms. Default: the server's `retry:` value, else `1000`. */
  readonly retryMs?: number;
  /** Extra request headers (`Accept` and `Last-Event-ID` are set by this source). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Passed to `fetch`. Default `'same-origin'`. */
  readonly credentials?: 'omit' | 'same-origin' | 'include';
  /** Default: `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
  readonly scheduler?: SchedulerLike;
  readonly after?: number;
}

/**
 * {@link fromEventSource} over a streamed `fetch` body, for environments without `EventSource`
 * or when headers are needed; it behaves the same (resume with `Last-Event-ID`, checked,
 * cancel aborts the request), but a non-2xx answer is not retried: it errors with `HTTP_STATUS`.
 *
 * @example
 * ```ts
 * import { fromFetchStream } from 'sluice/browser';
 * fromFetchStream('http://127.0.0.1:8080/runs/1/events', { headers: { authorization: `Bearer ${token}` } })
 *   .subscribe((event) => console.log(event.sequence, event.kind, event.content));
 * ```
 */
export function fromFetchStream(
  url: string,
  options?: FromFetchStreamOptions,
): Observable<ChunkEvent<unknown>> {
  if (typeof url !== 'string') throw optionError('url', 'a string', url, 'argument');
  rejectUnknownOptions(options, [
    'maxRetries',
    'retryMs',
    'headers',
    'credentials',
    'fetch',
    'scheduler',
    'after',
  ]);
  const maxRetries = readInteger(options, 'maxRetries', 5);
  const after = readInteger(options, 'after', undefined);
  const retryMs = readInteger(options, 'retryMs', undefined, { max: MAX_DELAY_MS });
  const headers = readOption(options, 'headers', isStringRecord, 'an object of strings', {});
  const credentials = readOption(
    options,
    'credentials',
    isCredentials,
    "'omit', 'same-origin' or 'include'",
    'same-origin',
  );
  const scheduler = readOption(options, 'scheduler', isSchedulerLike, 'a SchedulerLike', asyncScheduler);
  const fetchFunction = readFunction<typeof fetch>(options, 'fetch', globalThis.fetch);
  let serverRetry: number | undefined;
  const config = {
    maxRetries,
    after,
    scheduler,
    url,
    get retryMs() {
      return retryMs ?? serverRetry ?? 1000;
    },
  };
  return followSse((lastEventId, handlers) => {
    const controller = new AbortController();
    const requestHeaders: Record<string, string> = { ...headers, accept: 'text/event-stream' };
    if (lastEventId !== undefined) requestHeaders['last-event-id'] = String(lastEventId);
    const read = async () => {
      const response = await fetchFunction(url, {
        headers: requestHeaders,
        credentials,
        cache: 'no-store',
        signal: controller.signal,
      });
      if (!response.ok || response.body === null) {
        const text = `The SSE stream ${url} answered ${response.status} ${response.statusText}`.trim();
        await response.body?.cancel().catch(() => {});
        throw new SluiceError('HTTP_STATUS', text, { info: { url, status: response.status } });
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new SseParser();
      for (;;) {
        const { done, value } = await reader.read();
        if (done || controller.signal.aborted) break;
        for (const message of parser.push(value)) {
          if (controller.signal.aborted) break;
          handlers.message(message);
        }
        serverRetry = parser.retry ?? serverRetry;
      }
    };
    read().then(
      () => {
        if (!controller.signal.aborted) handlers.dropped(undefined, false);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof SluiceError && error.code === 'HTTP_STATUS') handlers.failed(error);
        else handlers.dropped(error, false);
      },
    );
    return () => controller.abort();
  }, config);
}

const isStringRecord = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((item) => typeof item === 'string');

const isCredentials = (value: unknown): value is RequestCredentials =>
  value === 'omit' || value === 'same-origin' || value === 'include';
