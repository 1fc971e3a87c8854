import { Observable } from 'rxjs';
import { demandOf } from '../core/subscriber-chain.js';
import { HttpExchange } from './http/http-exchange.js';
import type { HttpEvent, HttpOptions } from './http/http-types.js';
import { readHttpOptions, readHttpRequest } from './http/read-http-options.js';

export type {
  HttpBodyEvent,
  HttpEndEvent,
  HttpEndInfo,
  HttpEvent,
  HttpOptions,
  HttpResponseEvent,
  HttpResponseInfo,
} from './http/http-types.js';

/**
 * An HTTP exchange on the platform `fetch`, as an Observable of sequenced chunk events. Cold:
 * nothing is fetched until subscribe, and each subscription makes its own request.
 *
 * The stream is:
 * 1. `{ sequence: 0, kind: 'response', content: { status, statusText, headers, url }, isFinal: false }`;
 * 2. the body as `kind: 'body'` events: each `Uint8Array` read, or with `lines: true` each
 *    decoded UTF-8 line with its `\n` (a last line without one is still emitted; a line longer
 *    than `maxLineBytes` comes in pieces, all but the last marked `metadata.partial: true`);
 * 3. exactly one `{ kind: 'end', content: { status, bytes, durationMs }, isFinal: true }`, then complete.
 *
 * Failures are an {@link HttpError}, after every event already emitted:
 * - `HTTP_STATUS` — a non-2xx status with `reject: true` (the default). Nothing is emitted: the
 *   error is the outcome, and carries `status`, `statusText`, `headers` and the first 64 KiB of
 *   the body as text (`info.body`, `info.bodyTruncated`; read whatever the demand, since it is bounded). With `reject: false` such a response
 *   streams like any other and `end.status` says what it was.
 * - `HTTP_FAILED` — no response (connection refused, DNS, TLS, `init.signal` aborted…) or the
 *   connection dropped mid-body; `cause` is what `fetch` threw. With `lines`, the line begun
 *   before the drop is delivered first.
 * - `TIMEOUT` — `timeoutMs` (measured on `scheduler`, from subscribe to `end`) expired: the
 *   request is aborted and the error follows at once; nothing held back is emitted.
 *
 * Unsubscribing aborts the request (the connection is closed). Demand: body reads happen only
 * while the demand (option `demand`, default the consumer's demand, {@link demandOf})
 * is not paused, so a slow consumer leaves the body unread and TCP pushes back on the server.
 *
 * Throws a `TypeError` naming the argument or option when one is invalid, before anything is
 * fetched.
 *
 * @example
 * ```ts
 * import { filter } from 'rxjs';
 * import { http } from 'sluice';
 * http('https://example.com/log.txt', undefined, { lines: true, timeoutMs: 30_000 })
 *   .pipe(filter((event) => event.kind === 'body'))
 *   .subscribe((event) => process.stdout.write(event.content));
 * ```
 */
export function http(
  url: string | URL,
  init: RequestInit | undefined,
  options: HttpOptions & { readonly lines: true },
): Observable<HttpEvent<string>>;
/**
 * {@link http} without `lines`: each `body` event carries one `Uint8Array` read, as `fetch`
 * delivered it.
 *
 * @example
 * ```ts
 * import { http } from 'sluice';
 * http('http://127.0.0.1:8080/image.png').subscribe((event) => {
 *   if (event.kind === 'body') file.write(event.content); // a Uint8Array
 * });
 * ```
 */
export function http(
  url: string | URL,
  init?: RequestInit,
  options?: HttpOptions & { readonly lines?: false },
): Observable<HttpEvent<Uint8Array>>;
/**
 * {@link http} when `lines` is only known at run time: `body` events carry strings or
 * `Uint8Array`s.
 *
 * @example
 * ```ts
 * import { http } from 'sluice';
 * http(url, { method: 'POST', body }, { lines: wantLines }).subscribe((event) => {
 *   if (event.kind === 'body') console.log(typeof event.content === 'string' ? 'a line' : 'bytes');
 * });
 * ```
 */
export function http(url: string | URL, init?: RequestInit, options?: HttpOptions): Observable<HttpEvent>;
export function http(url: string | URL, init?: RequestInit, options?: HttpOptions): Observable<HttpEvent> {
  const request = readHttpRequest(url, init);
  const resolved = readHttpOptions(options);
  return new Observable<HttpEvent>((subscriber) => {
    const demand = resolved.demand ?? demandOf(subscriber);
    new HttpExchange(request, resolved, subscriber, demand).start();
  });
}
