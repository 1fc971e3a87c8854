import { describeValue } from '../../core/describe-value.js';
import { lazySchema } from '../../core/lazy-zod.js';

/** The validated request of an {@link http} call. */
export interface HttpRequest {
  /** The absolute URL, serialised. */
  readonly url: string;
  /** Upper-case method, for messages and errors. */
  readonly method: string;
  /** The caller's init, unchanged (its `signal`, if any, is combined with sluice's own at subscribe). */
  readonly init: RequestInit;
}

const urlSchema = lazySchema((z) =>
  z.union([z.string(), z.instanceof(URL)]).refine((url) => URL.canParse(String(url)), 'not an absolute URL'),
);

const initSchema = lazySchema((z) =>
  z.looseObject({
    method: z.string().min(1).optional(),
    signal: z.instanceof(AbortSignal).nullable().optional(),
  }),
);

/**
 * Validates the `url` and `init` arguments of {@link http} with zod. Throws a `TypeError`
 * naming the bad argument or field.
 *
 * @example
 * ```ts
 * parseHttpRequest('http://127.0.0.1:8080/x', { method: 'post' }).method; // 'POST'
 * parseHttpRequest('/relative', undefined); // TypeError: Expected the `url` argument to be an absolute URL …
 * ```
 */
export function parseHttpRequest(url: unknown, init: unknown): HttpRequest {
  if (!urlSchema().safeParse(url).success) {
    throw new TypeError(
      `Expected the \`url\` argument to be an absolute URL (string or URL), got ${describeValue(url)}`,
    );
  }
  const requestInit = init ?? {};
  if (typeof requestInit !== 'object' || Array.isArray(requestInit)) {
    throw new TypeError(
      `Expected the \`init\` argument to be a RequestInit object, got ${describeValue(init)}`,
    );
  }
  const result = initSchema().safeParse(requestInit);
  if (!result.success) {
    const field = String(result.error.issues[0]?.path[0]);
    const expected = field === 'signal' ? 'an AbortSignal' : 'a non-empty string';
    const value = (requestInit as Record<string, unknown>)[field];
    throw new TypeError(`Expected \`init.${field}\` to be ${expected}, got ${describeValue(value)}`);
  }
  const method = ((requestInit as RequestInit).method ?? 'GET').toUpperCase();
  return { url: new URL(String(url)).href, method, init: requestInit as RequestInit };
}
