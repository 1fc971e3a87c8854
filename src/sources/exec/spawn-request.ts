import type { TraceCarrier } from '../../trace/trace-context.js';
import type { ResolvedExecOptions } from './exec-options.js';
import type { SpawnRequest } from './process-port.js';

/**
 * What `exec` asks of its {@link ProcessPort}, from the resolved options. With a `carrier` (the
 * run's span) and `propagateTrace`, the child's environment gets `TRACEPARENT` and `TRACESTATE`
 * (an inherited `TRACESTATE` is removed when the span has none) — unless `env` names either
 * itself (docs/tracing.md).
 *
 * @example
 * ```ts
 * const handle = port.spawn(spawnRequest(options, span.carrier), events);
 * ```
 */
export function spawnRequest(options: ResolvedExecOptions, carrier?: TraceCarrier): SpawnRequest {
  return {
    file: options.file,
    args: options.args,
    cwd: options.cwd,
    env: carrier === undefined || !options.propagateTrace ? options.env : traceEnv(options.env, carrier),
    extendEnv: options.extendEnv,
    rlimits: options.rlimits,
    hasInput: options.input !== undefined,
    cleanup: options.cleanup,
    containment: options.containment,
    limits: options.limits,
    tty: options.tty === undefined ? undefined : { columns: options.tty.columns, rows: options.tty.rows },
  };
}

function traceEnv(
  env: Readonly<Record<string, string | undefined>> | undefined,
  carrier: TraceCarrier,
): Readonly<Record<string, string | undefined>> | undefined {
  if (env !== undefined && ('TRACEPARENT' in env || 'TRACESTATE' in env)) return env;
  return { ...env, TRACEPARENT: carrier.traceparent, TRACESTATE: carrier.tracestate };
}
