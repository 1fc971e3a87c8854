import { isPeerMissingError } from '../core/errors/peer-missing-error.js';
import { requirePeer } from '../core/load-peer.js';

/** The `@opentelemetry/api` module, as sluice uses it. */
export type TraceApi = typeof import('@opentelemetry/api');

/**
 * Loads `@opentelemetry/api` with `load` (default: `require` it, an optional peer), or gives
 * `undefined` when it is not installed — tracing is then off and costs nothing. Any other failure
 * (a broken install) is thrown. {@link traceApi} calls it once and keeps the answer.
 *
 * @example
 * ```ts
 * const api = loadTraceApi(); // undefined without @opentelemetry/api
 * ```
 */
export function loadTraceApi(
  load: () => TraceApi = () => requirePeer<TraceApi>('@opentelemetry/api', 'tracing'),
): TraceApi | undefined {
  try {
    return load();
  } catch (error) {
    if (isPeerMissingError(error)) return undefined;
    throw error;
  }
}

let loaded: { readonly api: TraceApi | undefined } | undefined;

/**
 * `@opentelemetry/api` if it is installed, else `undefined`: loaded synchronously on the first
 * call (the first run that could be traced), then kept. The API's own global registry decides
 * whether an SDK listens (docs/tracing.md).
 *
 * @example
 * ```ts
 * const api = traceApi();
 * if (api !== undefined) api.trace.getActiveSpan();
 * ```
 */
export function traceApi(): TraceApi | undefined {
  loaded ??= { api: loadTraceApi() };
  return loaded.api;
}
