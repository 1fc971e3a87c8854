import type { Subscriber } from 'rxjs';
import type { ChunkMetadata } from '../../core/chunk.js';
import type { Demand } from '../../core/demand.js';
import { stalledBelow } from '../../core/subscriber-chain.js';
import {
  NOOP_RUN_SPAN,
  type RunSpan,
  type SpanEndDetails,
  type SpanEndReason,
} from '../../trace/run-span.js';
import { cancelledError } from '../exec/exec-failure.js';
import { BodyLineSplitter, type BodySink, pumpBody, waitForFlow } from './http-body.js';
import { HttpError, type HttpErrorCode, type HttpErrorInfo } from './http-error.js';
import { readErrorBody, toResponseInfo } from './http-response.js';
import { startHttpSpan, traceHeaders } from './http-span.js';
import type { HttpEvent, HttpResponseInfo } from './http-types.js';
import type { HttpRequest, ResolvedHttpOptions } from './read-http-options.js';

/** How much of a rejected (non-2xx) response's body the `HTTP_STATUS` error carries. */
const ERROR_BODY_LIMIT = 65_536;

/** The span's end for each way an exchange fails. */
const FAILURE_REASONS: Readonly<Record<HttpErrorCode, SpanEndReason>> = {
  HTTP_STATUS: 'error',
  HTTP_FAILED: 'error',
  TIMEOUT: 'timeout',
};

/**
 * One subscription of {@link http}, its steps: {@link HttpExchange.start} (teardown, cancel
 * signal, timeout, then the exchange), the exchange itself (fetch, `response`, the body, `end`),
 * and the ways it ends (a failure, a cancel, an unsubscribe), each ending the run's span
 * (docs/tracing.md). Its `AbortController` is aborted on every one of those ends, so the socket is
 * closed before an error is delivered.
 */
export class HttpExchange {
  readonly #request: HttpRequest;
  readonly #options: ResolvedHttpOptions;
  readonly #subscriber: Subscriber<HttpEvent>;
  readonly #demand: Demand | undefined;
  readonly #controller = new AbortController();
  readonly #startedAt: number;
  #span: RunSpan = NOOP_RUN_SPAN;
  #response: HttpResponseInfo | undefined;
  #bytes = 0;
  #sequence = 0;
  #bodyChunks = 0;
  #pausedMs = 0;
  #spanEnded = false;

  constructor(
    request: HttpRequest,
    options: ResolvedHttpOptions,
    subscriber: Subscriber<HttpEvent>,
    demand: Demand | undefined,
  ) {
    this.#request = request;
    this.#options = options;
    this.#subscriber = subscriber;
    this.#demand = demand;
    this.#startedAt = options.scheduler.now();
  }

  /** Starts the span, arms what may end the exchange, and fetches. */
  start(): void {
    const subscriber = this.#subscriber;
    const { signal } = this.#controller;
    this.#span = startHttpSpan(this.#request);
    subscriber.add(() => this.#unsubscribed()); // first: cancel means the request is gone
    const { cancelSignal, timeoutMs, scheduler } = this.#options;
    if (cancelSignal?.aborted) {
      this.#cancel(cancelSignal.reason);
      return;
    }
    if (cancelSignal !== undefined) {
      const onCancel = () => (signal.aborted ? undefined : this.#cancel(cancelSignal.reason));
      cancelSignal.addEventListener('abort', onCancel, { once: true });
      subscriber.add(() => cancelSignal.removeEventListener('abort', onCancel));
    }
    if (timeoutMs > 0)
      subscriber.add(scheduler.schedule(() => this.#fail('TIMEOUT', { timeoutMs }), timeoutMs));
    this.#span
      .within(() => this.#run())
      .catch((error: unknown) => {
        if (!signal.aborted) this.#fail('HTTP_FAILED', {}, error);
      });
  }

  async #run(): Promise<void> {
    const { signal } = this.#controller;
    const { init, url } = this.#request;
    const combined = init.signal ? AbortSignal.any([signal, init.signal]) : signal;
    const carrier = this.#options.propagateTrace ? this.#span.carrier : undefined;
    const headers = carrier === undefined ? {} : { headers: traceHeaders(init.headers, carrier) };
    const answer = await this.#options.fetch(url, { ...init, ...headers, signal: combined });
    if (signal.aborted) return;
    const response = toResponseInfo(answer, url);
    this.#response = response;
    this.#span.add({ 'http.response.status_code': response.status });
    if (!answer.ok && this.#options.reject) {
      const { text, truncated } = await readErrorBody(answer, ERROR_BODY_LIMIT);
      if (!signal.aborted) this.#fail('HTTP_STATUS', { body: text, bodyTruncated: truncated });
      return;
    }
    if (!(await this.#emit({ kind: 'response', content: response, isFinal: false }))) return;
    if (answer.body !== null && !(await pumpBody(answer.body, this.#splitter(), this.#sink()))) return;
    const end = { status: response.status, bytes: this.#bytes, durationMs: this.#elapsed() };
    if (!(await this.#emit({ kind: 'end', content: end, isFinal: true }))) return;
    // A status the caller accepts (`reject: false`) is still an error of the request, as the conventions say.
    this.#endSpan('complete', response.status >= 400 ? String(response.status) : undefined);
    this.#subscriber.complete();
  }

  #splitter(): BodyLineSplitter | undefined {
    return this.#options.lines ? new BodyLineSplitter(this.#options.maxLineBytes) : undefined;
  }

  #sink(): BodySink {
    return {
      signal: this.#controller.signal,
      flowing: () => this.#flowing(),
      received: (count) => {
        if (this.#bytes === 0) this.#span.event('sluice.first_output', { 'sluice.stream': 'body' });
        this.#bytes += count;
      },
      emit: (content, partial) => {
        this.#bodyChunks += 1;
        return this.#emit({ kind: 'body', content, isFinal: false }, partial ? { partial: true } : undefined);
      },
    };
  }

  /** Waits while paused; `false` once the exchange is over (unsubscribed, timed out). */
  async #flowing(): Promise<boolean> {
    const demand = this.#demand;
    const { signal } = this.#controller;
    if (demand?.paused && !signal.aborted) {
      const pausedAt = this.#options.scheduler.now();
      while (demand.paused && !signal.aborted) await waitForFlow(demand, signal);
      this.#pausedMs += this.#options.scheduler.now() - pausedAt;
    }
    return !signal.aborted;
  }

  /** Emits the next event once demand flows; `false` when the exchange is over. */
  async #emit(event: Omit<HttpEvent, 'sequence'>, metadata?: ChunkMetadata): Promise<boolean> {
    const { signal } = this.#controller;
    if (this.#demand?.paused && !(await this.#flowing())) return false;
    if (signal.aborted) return false;
    const next = { sequence: this.#sequence++, ...event, ...(metadata === undefined ? {} : { metadata }) };
    this.#subscriber.next(next as HttpEvent);
    return !signal.aborted;
  }

  #elapsed(): number {
    return this.#options.scheduler.now() - this.#startedAt;
  }

  #infoSoFar(extra: Partial<HttpErrorInfo> = {}): HttpErrorInfo {
    const response = this.#response;
    return {
      url: this.#request.url,
      method: this.#request.method,
      status: response?.status,
      statusText: response?.statusText,
      headers: response?.headers,
      bytes: this.#bytes,
      durationMs: this.#elapsed(),
      ...extra,
    };
  }

  #fail(code: HttpErrorCode, extra: Partial<HttpErrorInfo> = {}, cause?: unknown): void {
    this.#controller.abort();
    const error = new HttpError(code, this.#infoSoFar(extra), cause === undefined ? {} : { cause });
    this.#endSpan(FAILURE_REASONS[code], errorTypeOf(code, this.#response, cause), error.message);
    this.#subscriber.error(error);
  }

  #cancel(reason: unknown): void {
    this.#controller.abort();
    this.#span.event('sluice.cancel');
    this.#endSpan('cancel');
    const { method, url } = this.#request;
    this.#subscriber.error(cancelledError(reason, this.#infoSoFar(), `${method} ${url}`, 'Request'));
  }

  /** The subscription ended: the request is aborted; a span not ended yet was cancelled (or stalled). */
  #unsubscribed(): void {
    this.#controller.abort();
    if (this.#spanEnded || !this.#span.observed) return;
    const stalled = stalledBelow(this.#subscriber);
    if (stalled === undefined) this.#span.event('sluice.cancel');
    else this.#span.event('sluice.stall', { 'sluice.stall_ms': stalled });
    this.#endSpan(stalled === undefined ? 'cancel' : 'stall', stalled === undefined ? undefined : 'stall');
  }

  #endSpan(reason: SpanEndReason, errorType?: string, message?: string): void {
    this.#spanEnded = true;
    const details: SpanEndDetails = {
      lines: this.#bodyChunks,
      bytes: { body: this.#bytes },
      pausedMs: this.#pausedMs,
      ...(errorType === undefined ? {} : { errorType }),
      ...(message === undefined ? {} : { message }),
    };
    this.#span.end(reason, details);
  }
}

/** `error.type` of a failed exchange: the status code, `timeout`, or the network error's code. */
function errorTypeOf(code: HttpErrorCode, response: HttpResponseInfo | undefined, cause: unknown): string {
  if (code === 'TIMEOUT') return 'timeout';
  if (code === 'HTTP_STATUS' && response !== undefined) return String(response.status);
  const { cause: inner, name } = (cause ?? {}) as { cause?: { code?: unknown }; name?: unknown };
  if (typeof inner?.code === 'string') return inner.code;
  return typeof name === 'string' ? name : '_OTHER';
}
