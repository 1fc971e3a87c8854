/** Where `@opentelemetry/api` 1.x keeps what was registered with it (its `global-utils`), whichever copy of it did. */
const REGISTRY = Symbol.for('opentelemetry.js.api.1');

/**
 * The slots of the API's global registry sluice looks at: `trace.setGlobalTracerProvider`,
 * `metrics.setGlobalMeterProvider` and `context.setGlobalContextManager` fill them, `disable()`
 * empties them.
 */
export interface ApiRegistry {
  readonly trace?: unknown;
  readonly metrics?: unknown;
  readonly context?: unknown;
}

/**
 * What is registered with `@opentelemetry/api` (`undefined`: nothing ever was) — one property
 * read, without loading the API, so that each run decides once, at its start, whether anything
 * listens to it (docs/tracing.md, "How it costs").
 *
 * @example
 * ```ts
 * const registry = apiRegistry();
 * const listened = registry?.trace !== undefined || registry?.metrics !== undefined;
 * ```
 */
export function apiRegistry(): ApiRegistry | undefined {
  return (globalThis as { [REGISTRY]?: ApiRegistry })[REGISTRY];
}
