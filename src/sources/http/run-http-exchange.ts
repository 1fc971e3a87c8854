import type { Subscriber, TeardownLogic } from 'rxjs';
import type { Demand } from '../../core/demand.js';
import { HttpExchange } from './http-exchange.js';
import type { HttpEvent } from './http-types.js';
import type { ResolvedHttpOptions } from './parse-http-options.js';
import type { HttpRequest } from './parse-http-request.js';

/**
 * One subscription of {@link http}: fetches, emits `response`, the body chunks and `end`, and
 * returns the teardown. Its steps are those of {@link HttpExchange}; what it owns:
 *
 * - an `AbortController` aborted on unsubscribe, on timeout and on any failure (so the socket
 *   is closed before the error is delivered), combined with the caller's `init.signal`;
 * - the timeout, a `scheduler.schedule` action added to the subscriber;
 * - the body reader, which is only `read()` while `demand` flows: a paused consumer leaves the
 *   body in the socket, so TCP pushes back on the server. With `lines`, the lines split from
 *   one read are also held back while paused;
 * - the run's span (docs/tracing.md), ended with the exchange: `complete`, a failure, or a cancel.
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
  new HttpExchange(request, options, subscriber, demand).start();
  return undefined;
}
