import { isSluiceError, SluiceError } from '../../core/errors/sluice-error.js';

const HTTP_BRAND = Symbol.for('sluice.error.http');

/** The codes an {@link HttpError} carries. */
export type HttpErrorCode = 'HTTP_STATUS' | 'HTTP_FAILED' | 'TIMEOUT';

/**
 * Details carried by an {@link HttpError}. `status`, `statusText` and `headers` (lower-case
 * names) are `undefined` when no response arrived; `body` (the start of the body, as UTF-8) and
 * `bodyTruncated` come with `HTTP_STATUS` only.
 */
export interface HttpErrorInfo {
  readonly url: string;
  readonly method: string;
  readonly status: number | undefined;
  readonly statusText: string | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;
  readonly body?: string;
  readonly bodyTruncated?: boolean;
  /**
   * Body bytes read before the failure. All were delivered, except (with `lines`) the lines a
   * paused consumer was holding back when a timeout struck.
   */
  readonly bytes: number;
  /** Time from subscribe to the failure, on the source's scheduler. */
  readonly durationMs: number;
  /** `TIMEOUT` only: the `timeoutMs` option that expired. */
  readonly timeoutMs?: number;
}

/**
 * An HTTP exchange failed. Its `code` says how:
 *
 * - `HTTP_STATUS` — the server answered with a non-2xx status (and `reject` was on);
 * - `HTTP_FAILED` — the request could not be made (connection refused, DNS, TLS…) or the
 *   connection dropped mid-body; `cause` is the error `fetch` raised;
 * - `TIMEOUT` — the `timeoutMs` option expired before the exchange finished.
 *
 * @example
 * ```ts
 * import { HttpError } from 'sluice';
 * const error = new HttpError('HTTP_STATUS', {
 *   url: 'http://127.0.0.1/missing', method: 'GET', status: 404, statusText: 'Not Found',
 *   headers: {}, bytes: 0, durationMs: 3,
 * });
 * error.message; // 'GET http://127.0.0.1/missing responded 404 Not Found'
 * ```
 */
export class HttpError extends SluiceError<HttpErrorInfo> {
  declare readonly code: HttpErrorCode;
  declare readonly info: HttpErrorInfo;

  constructor(code: HttpErrorCode, info: HttpErrorInfo, options: { cause?: unknown } = {}) {
    super(code, describe(code, info, options.cause), { info, cause: options.cause });
    Object.defineProperty(this, HTTP_BRAND, { value: true, enumerable: false });
  }

  override get name(): string {
    return 'HttpError';
  }
}

function describe(code: HttpErrorCode, info: HttpErrorInfo, cause: unknown): string {
  const request = `${info.method} ${info.url}`;
  const received = info.status !== undefined;
  switch (code) {
    case 'HTTP_STATUS':
      return `${request} responded ${info.status} ${info.statusText ?? ''}`.trimEnd();
    case 'TIMEOUT':
      return `${request} timed out after ${info.timeoutMs}ms${received ? ` (${info.bytes} body bytes read)` : ' (no response)'}`;
    case 'HTTP_FAILED':
      return `${request} failed${received ? ` mid-body after ${info.bytes} bytes` : ''}: ${explain(cause)}`;
  }
}

/** The cause's message, followed by its own cause's (undici hides the socket error one level down). */
function explain(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause;
  return inner instanceof Error && inner.message !== ''
    ? `${cause.message} (${inner.message})`
    : cause.message;
}

/**
 * Whether `value` is an {@link HttpError} (optionally with the given code), in any realm and
 * from either build of the package.
 *
 * @example
 * ```ts
 * if (isHttpError(error, 'HTTP_STATUS')) console.log(error.info.status);
 * ```
 */
export function isHttpError(value: unknown, code?: HttpErrorCode): value is HttpError {
  if (!isSluiceError(value, code)) return false;
  return (value as unknown as Record<symbol, unknown>)[HTTP_BRAND] === true;
}
