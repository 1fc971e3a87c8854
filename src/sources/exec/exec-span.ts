import { basename } from 'node:path';
import { type RunSpan, type SpanEndDetails, type SpanEndReason, startRunSpan } from '../../trace/run-span.js';
import type { ResolvedExecOptions } from './exec-options.js';
import type { ExecResult } from './exec-result.js';

/**
 * Starts the span of one exec run, `exec <executable>`, as a child of the active context: the
 * process semantic conventions' `process.executable.name`, and `process.command_args` only with
 * `traceCommandArgs` (arguments may hold secrets). docs/tracing.md lists the rest.
 */
export function startExecSpan(options: ResolvedExecOptions): RunSpan {
  const name = basename(options.file);
  return startRunSpan('exec', `exec ${name}`, {
    'process.executable.name': name,
    'process.command_args': options.traceCommandArgs ? [options.file, ...options.args] : undefined,
  });
}

/**
 * How a finished exec run ends its span: the reason, `error.type` for a failure (the signal's
 * name, the non-zero exit code, `timeout`) — a cancelled run is no failure of the command, so its
 * status stays unset — and the result's attributes.
 */
export function execSpanEnd(
  result: ExecResult,
  cancelled: boolean,
  counts: Pick<SpanEndDetails, 'lines' | 'bytes' | 'pausedMs'>,
): [SpanEndReason, SpanEndDetails] {
  const attributes = {
    'process.exit.code': result.exitCode ?? undefined,
    'sluice.signal': result.signal ?? undefined,
    'sluice.truncated': result.truncated,
    'sluice.containment': result.containment,
    'sluice.rlimit_hit': result.rlimitHit ?? undefined,
    'sluice.limit_hit': result.limitHit ?? undefined,
  };
  const failure = (errorType: string, message: string): SpanEndDetails => ({
    ...counts,
    attributes,
    errorType,
    message,
  });
  if (cancelled) return ['cancel', { ...counts, attributes }];
  if (result.timedOut) return ['timeout', failure('timeout', 'timed out')];
  if (result.signal !== null) return ['signal', failure(result.signal, `killed by ${result.signal}`)];
  if (result.exitCode !== 0)
    return ['exit', failure(String(result.exitCode), `exit code ${result.exitCode}`)];
  return ['exit', { ...counts, attributes }];
}
