import { isPeerNotFound, ownRequire } from '../core/load-peer.js';

/** The `@opentelemetry/api` module, as sluice uses it. */
export type TraceApi = typeof import('@opentelemetry/api');

/**
 * Loads `@opentelemetry/api` (an optional peer) with `require` — by default Node's, from here —
 * or gives `undefined` when it is not installed: tracing is then off and costs nothing. Any other
 * failure (a broken install) is thrown. {@link traceApi} calls it once and keeps the answer.
 */
export function loadTraceApi(load: (id: string) => unknown = ownRequire()): TraceApi | undefined {
  try {
    return load('@opentelemetry/api') as TraceApi;
  } catch (error) {
    if (isPeerNotFound(error, '@opentelemetry/api')) return undefined;
    throw error;
  }
}

let loaded: { readonly api: TraceApi | undefined } | undefined;

/**
 * `@opentelemetry/api` if it is installed, else `undefined`: loaded synchronously on the first
 * call (the first run that could be traced), then kept. The API's own global registry decides
 * whether an SDK listens (docs/tracing.md).
 */
export function traceApi(): TraceApi | undefined {
  loaded ??= { api: loadTraceApi() };
  return loaded.api;
}

/** Where `@opentelemetry/api` 1.x keeps what was registered with it (its `global-utils`), whichever copy of it did. */
const REGISTRY = Symbol.for('opentelemetry.js.api.1');

/** The slots of the API's global registry that its `setGlobal*` calls fill and `disable()` empties. */
interface ApiRegistry {
  readonly trace?: unknown;
  readonly metrics?: unknown;
  readonly context?: unknown;
}

/** One property read, without loading the API (docs/tracing.md, "How it costs"). */
function apiRegistry(): ApiRegistry | undefined {
  return (globalThis as { [REGISTRY]?: ApiRegistry })[REGISTRY];
}

/** Whether a tracer or meter provider is registered (an SDK listens). */
export function sdkListens(): boolean {
  const registry = apiRegistry();
  return registry !== undefined && (registry.trace !== undefined || registry.metrics !== undefined);
}

/** Whether a context manager is registered: without one nothing is ever active, and `context.with` just calls its function. */
export function contextManaged(): boolean {
  return apiRegistry()?.context !== undefined;
}
