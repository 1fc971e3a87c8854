import { isSluiceError, SluiceError } from '../../core/errors/sluice-error.js';
import type { ExecResult } from './exec-result.js';

/**
 * A command ran but did not succeed: it exited with a non-zero code or died by a signal (code
 * `EXEC_FAILED`), it ran past its `timeoutMs` and was killed (code `TIMEOUT`), or it ran into
 * one of its tree-wide `limits` (code `LIMIT_EXCEEDED`, `result.limitHit` says which). It is raised by
 * `exec` with `reject: true` (the default) after every line event was delivered, and carries the
 * same {@link ExecResult} the `exit` event would have carried, as `info` (and `result`).
 *
 * @example
 * ```ts
 * import { exec, isExecError } from 'sluice';
 * exec('sh', ['-c', 'exit 3']).subscribe({
 *   error: (error) => {
 *     if (isExecError(error)) console.log(error.code, error.result.exitCode); // 'EXEC_FAILED' 3
 *   },
 * });
 * ```
 */
export class ExecError extends SluiceError<ExecResult> {
  constructor(result: ExecResult, options: { cause?: unknown; timeoutMs?: number } = {}) {
    super(codeOf(result), describe(result, options.timeoutMs), {
      info: result,
      cause: options.cause,
    });
  }

  override get name(): string {
    return 'ExecError';
  }

  /** The result of the run (same as `info`). */
  get result(): ExecResult {
    return this.info as ExecResult;
  }
}

function codeOf(result: ExecResult): 'TIMEOUT' | 'LIMIT_EXCEEDED' | 'EXEC_FAILED' {
  if (result.timedOut) return 'TIMEOUT';
  return result.limitHit !== null && result.limitHit !== undefined ? 'LIMIT_EXCEEDED' : 'EXEC_FAILED';
}

function describe(result: ExecResult, timeoutMs = result.durationMs): string {
  const hit = result.rlimitHit ?? result.limitHit ?? null;
  const limit = hit === null ? '' : ` (${hit} limit hit)`;
  if (result.timedOut) return `Command timed out after ${timeoutMs} milliseconds: ${result.command}`;
  if (result.signal !== null) return `Command was killed with ${result.signal}${limit}: ${result.command}`;
  if (result.exitCode === 0) return `Command ran into its ${hit} limit: ${result.command}`;
  return `Command failed with exit code ${result.exitCode}${limit}: ${result.command}`;
}

/**
 * Whether `value` is an {@link ExecError} (code `EXEC_FAILED`, `TIMEOUT` or `LIMIT_EXCEEDED`), in any realm.
 *
 * @example
 * ```ts
 * if (isExecError(error) && error.code === 'TIMEOUT') console.log(error.result.stdout);
 * ```
 */
export function isExecError(value: unknown): value is ExecError {
  return (
    (isSluiceError(value, 'EXEC_FAILED') ||
      isSluiceError(value, 'TIMEOUT') ||
      isSluiceError(value, 'LIMIT_EXCEEDED')) &&
    typeof (value as SluiceError).info === 'object' &&
    (value as SluiceError).info !== null &&
    'exitCode' in ((value as SluiceError).info as object)
  );
}
