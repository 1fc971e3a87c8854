import type { Subscriber, TeardownLogic } from 'rxjs';
import type { ChunkMetadata } from '../../core/chunk.js';
import type { Demand } from '../../core/demand.js';
import { CancelledError } from '../../core/errors/cancelled-error.js';
import { HttpError, type HttpErrorCode, type HttpErrorInfo } from '../../core/errors/http-error.js';
import { BodyLineSplitter } from './body-line-splitter.js';
import type { HttpEvent, HttpResponseInfo } from './http-types.js';
import type { ResolvedHttpOptions } from './parse-http-options.js';
import type { HttpRequest } from './parse-http-request.js';
import { type BodySink, pumpBody } from './pump-body.js';
import { readErrorBody } from './read-error-body.js';
import { toResponseInfo } from './to-response-info.js';
import { waitForFlow } from './wait-for-flow.js';

/** How much of a rejected (non-2xx) response's body the `HTTP_STATUS` error carries. */
const ERROR_BODY_LIMIT = 65_536;

/**
 * One subscription of {@link http}: fetches, emits `response`, the body chunks and `end`, and
 * returns the teardown. Everything it owns lives in this closure:
 *
 * - an `AbortController` aborted on unsubscribe, on timeout and on any failure (so the socket
 *   is closed before the error is delivered), combined with the caller's `init.signal`;
 * - the timeout, a `scheduler.schedule` action added to the subscriber;
 * - the body reader, which is only `read()` while `demand` flows: a paused consumer leaves the
 *   body in the socket, so TCP pushes back on the server. With `lines`, the lines split from
 *   one read are also held back while paused.
 *
 * @example
 * ```ts
 * new Observable<HttpEvent>((subscriber) => runHttpExchange(request, options, subscriber, demandOf(subscriber)));
 * ```
 */
export function runHttpExchange(
  request: HttpRequest,
  options: ResolvedHttpOptions,
  subscriber: Subscriber<HttpEvent>,
  demand: Demand | undefined,
): TeardownLogic {
  const { scheduler } = options;
  const controller = new AbortController();
  const { signal } = controller;
  const startedAt = scheduler.now();
  const elapsed = () => scheduler.now() - startedAt;
  let response: HttpResponseInfo | undefined;
  let bytes = 0;
  let sequence = 0;

  const infoSoFar = (extra: Partial<HttpErrorInfo> = {}): HttpErrorInfo => ({
    url: request.url,
    method: request.method,
    status: response?.status,
    statusText: response?.statusText,
    headers: response?.headers,
    bytes,
    durationMs: elapsed(),
    ...extra,
  });
  const fail = (code: HttpErrorCode, extra: Partial<HttpErrorInfo> = {}, cause?: unknown) => {
    controller.abort();
    subscriber.error(new HttpError(code, infoSoFar(extra), cause === undefined ? {} : { cause }));
  };
  const cancel = (reason: unknown) => {
    controller.abort();
    const why = reason instanceof Error && reason.name !== 'AbortError' ? ` (${reason.message})` : '';
    const message = `Request was cancelled${why}: ${request.method} ${request.url}`;
    subscriber.error(new CancelledError(message, { reason, result: infoSoFar() }, { cause: reason }));
  };

  /** Waits while paused; `false` once the exchange is over (unsubscribed, timed out). */
  const flowing = async (): Promise<boolean> => {
    while (demand?.paused && !signal.aborted) await waitForFlow(demand, signal);
    return !signal.aborted;
  };

  /** Emits the next event once demand flows; `false` when the exchange is over. */
  const emit = async (event: Omit<HttpEvent, 'sequence'>, metadata?: ChunkMetadata): Promise<boolean> => {
    if (demand?.paused && !(await flowing())) return false;
    if (signal.aborted) return false;
    const next = { sequence: sequence++, ...event, ...(metadata === undefined ? {} : { metadata }) };
    subscriber.next(next as HttpEvent);
    return !signal.aborted;
  };

  const run = async (): Promise<void> => {
    const outer = request.init.signal;
    const combined = outer ? AbortSignal.any([signal, outer]) : signal;
    const answer = await options.fetch(request.url, { ...request.init, signal: combined });
    if (signal.aborted) return;
    response = toResponseInfo(answer, request.url);
    if (!answer.ok && options.reject) {
      const { text, truncated } = await readErrorBody(answer, ERROR_BODY_LIMIT);
      if (!signal.aborted) fail('HTTP_STATUS', { body: text, bodyTruncated: truncated });
      return;
    }
    if (!(await emit({ kind: 'response', content: response, isFinal: false }))) return;
    if (answer.body !== null) {
      const splitter = options.lines ? new BodyLineSplitter(options.maxLineBytes) : undefined;
      const sink: BodySink = {
        signal,
        flowing,
        received: (count) => {
          bytes += count;
        },
        emit: (content, partial) =>
          emit({ kind: 'body', content, isFinal: false }, partial ? { partial: true } : undefined),
      };
      if (!(await pumpBody(answer.body, splitter, sink))) return;
    }
    const end = { status: response.status, bytes, durationMs: elapsed() };
    if (!(await emit({ kind: 'end', content: end, isFinal: true }))) return;
    subscriber.complete();
  };

  subscriber.add(() => controller.abort()); // first: cancel means the request is gone
  const { cancelSignal } = options;
  if (cancelSignal?.aborted) {
    cancel(cancelSignal.reason);
    return undefined;
  }
  if (cancelSignal !== undefined) {
    const onCancel = () => {
      if (!signal.aborted) cancel(cancelSignal.reason);
    };
    cancelSignal.addEventListener('abort', onCancel, { once: true });
    subscriber.add(() => cancelSignal.removeEventListener('abort', onCancel));
  }
  if (options.timeoutMs > 0) {
    subscriber.add(
      scheduler.schedule(() => fail('TIMEOUT', { timeoutMs: options.timeoutMs }), options.timeoutMs),
    );
  }
  run().catch((error: unknown) => {
    if (!signal.aborted) fail('HTTP_FAILED', {}, error);
  });
  return undefined;
}
