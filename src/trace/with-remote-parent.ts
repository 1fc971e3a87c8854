import { apiRegistry } from './api-registry.js';
import { remoteContext } from './remote-context.js';
import { traceApi } from './trace-api.js';
import type { TraceCarrier } from './trace-carrier.js';

/**
 * Calls `fn` with the remote span of `carrier` as the active parent, so that every run `fn`
 * starts (a subscribe to `exec`, `http`) becomes its child — how a `TRACEPARENT` from the
 * environment or an MCP request's `_meta.traceparent` joins a trace. Without `@opentelemetry/api`,
 * without a carrier, or with a `traceparent` that does not parse, `fn` just runs.
 *
 * @example
 * ```ts
 * const carrier = { traceparent: process.env.TRACEPARENT ?? '', tracestate: process.env.TRACESTATE };
 * withRemoteParent(carrier, () => exec('make').subscribe(console.log));
 * ```
 */
export function withRemoteParent<T>(carrier: TraceCarrier | undefined, fn: () => T): T {
  if (carrier === undefined) return fn(); // no remote parent: the API need not even be loaded
  if (apiRegistry()?.context === undefined) return fn(); // no context manager: `context.with` would just call fn
  const api = traceApi();
  if (api === undefined) return fn();
  const active = api.context.active();
  const parent = remoteContext(api, carrier, active);
  return parent === active ? fn() : api.context.with(parent, fn);
}
