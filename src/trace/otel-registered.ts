/** Where `@opentelemetry/api` 1.x keeps what is registered (SDK, context manager, …), one object for all copies. */
const GLOBAL_KEY = Symbol.for('opentelemetry.js.api.1');

/**
 * Whether anything was ever registered with `@opentelemetry/api` (a tracer or meter provider, a
 * context manager, a propagator, a diag logger), read from the API's global slot without loading
 * the API. When nothing is, the API can only make non-recording spans with no active parent and
 * no-op metrics, so a run without a remote parent needs no API at all (docs/benchmarks.md,
 * "Start-up"): `sluice exec -- cmd` then does not load its ~40 files.
 */
export function otelRegistered(): boolean {
  return (globalThis as Record<symbol, unknown>)[GLOBAL_KEY] !== undefined;
}
