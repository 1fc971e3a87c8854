import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { type Demand, isDemand } from '../../core/demand.js';
import { isAbortSignal } from '../../core/is-abort-signal.js';
import { isSchedulerLike } from '../../core/is-scheduler-like.js';
import { MAX_DELAY_MS } from '../../core/max-delay-ms.js';
import { optionError } from '../../core/option-error.js';
import { readBoolean } from '../../core/read-boolean.js';
import { readFunction } from '../../core/read-function.js';
import { readInteger } from '../../core/read-integer.js';
import { readOption } from '../../core/read-option.js';
import { rejectUnknownOptions } from '../../core/reject-unknown-options.js';
import type { HttpOptions } from './http-types.js';

/** {@link HttpOptions} with every default applied (`demand` stays optional: it is resolved at subscribe). */
export interface ResolvedHttpOptions {
  readonly lines: boolean;
  readonly maxLineBytes: number;
  readonly timeoutMs: number;
  readonly reject: boolean;
  readonly scheduler: SchedulerLike;
  readonly demand: Demand | undefined;
  readonly fetch: typeof globalThis.fetch;
  readonly cancelSignal: AbortSignal | undefined;
  readonly propagateTrace: boolean;
}

const KNOWN = [
  'lines',
  'maxLineBytes',
  'timeoutMs',
  'reject',
  'scheduler',
  'demand',
  'fetch',
  'cancelSignal',
  'propagateTrace',
];

/**
 * Validates the options of {@link http} and applies the defaults. Throws a `TypeError`
 * naming the first bad option, in execa's template.
 */
export function readHttpOptions(options: HttpOptions | undefined): ResolvedHttpOptions {
  if (options === undefined) options = {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw optionError('options', 'an object', options, 'argument');
  }
  rejectUnknownOptions(options, KNOWN);
  return {
    lines: readBoolean(options, 'lines', false),
    maxLineBytes: readInteger(options, 'maxLineBytes', 65_536, { min: 1 }),
    timeoutMs: readInteger(options, 'timeoutMs', 0, { max: MAX_DELAY_MS }),
    reject: readBoolean(options, 'reject', true),
    scheduler: readOption(options, 'scheduler', isSchedulerLike, 'a SchedulerLike', asyncScheduler),
    demand: readOption(options, 'demand', isDemand, 'a Demand (`paused` and `onChange()`)', undefined),
    fetch: readFunction<typeof globalThis.fetch>(options, 'fetch', globalThis.fetch),
    cancelSignal: readOption(options, 'cancelSignal', isAbortSignal, 'an AbortSignal', undefined),
    propagateTrace: readBoolean(options, 'propagateTrace', true),
  };
}

/** The validated request of an {@link http} call. */
export interface HttpRequest {
  /** The absolute URL, serialised. */
  readonly url: string;
  /** Upper-case method, for messages and errors. */
  readonly method: string;
  /** The caller's init, unchanged (its `signal`, if any, is combined with sluice's own at subscribe). */
  readonly init: RequestInit;
}

/**
 * Validates the `url` and `init` arguments of {@link http}. Throws a `TypeError`
 * naming the bad argument or field.
 */
export function readHttpRequest(url: unknown, init: unknown): HttpRequest {
  if (!((typeof url === 'string' || url instanceof URL) && URL.canParse(String(url)))) {
    throw optionError('url', 'an absolute URL (string or URL)', url, 'argument');
  }
  const requestInit = init ?? {};
  if (typeof requestInit !== 'object' || Array.isArray(requestInit)) {
    throw optionError('init', 'a RequestInit object', init, 'argument');
  }
  const { method, signal } = requestInit as RequestInit;
  if (method !== undefined && (typeof method !== 'string' || method === '')) {
    throw optionError('init.method', 'a non-empty string', method, 'argument');
  }
  if (signal !== undefined && signal !== null && !isAbortSignal(signal)) {
    throw optionError('init.signal', 'an AbortSignal', signal, 'argument');
  }
  return {
    url: new URL(String(url)).href,
    method: (method ?? 'GET').toUpperCase(),
    init: requestInit as RequestInit,
  };
}
