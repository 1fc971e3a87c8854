import type { ExecResult } from '../exec-result.js';
import { isSluiceError, SluiceError } from './sluice-error.js';

/**
 * A command ran but did not succeed: it exited with a non-zero code or died by a signal (code
 * `EXEC_FAILED`), or it ran past its `timeoutMs` and was killed (code `TIMEOUT`). It is raised by
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
    super(result.timedOut ? 'TIMEOUT' : 'EXEC_FAILED', describe(result, options.timeoutMs), {
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

function describe(result: ExecResult, timeoutMs = result.durationMs): string {
  const limit = result.rlimitHit === null ? '' : ` (${result.rlimitHit} limit hit)`;
  if (result.timedOut) return `Command timed out after ${timeoutMs} milliseconds: ${result.command}`;
  if (result.signal !== null) return `Command was killed with ${result.signal}${limit}: ${result.command}`;
  return `Command failed with exit code ${result.exitCode}${limit}: ${result.command}`;
}

/**
 * Whether `value` is an {@link ExecError} (code `EXEC_FAILED` or `TIMEOUT`), in any realm.
 *
 * @example
 * ```ts
 * if (isExecError(error) && error.code === 'TIMEOUT') console.log(error.result.stdout);
 * ```
 */
export function isExecError(value: unknown): value is ExecError {
  return (
    (isSluiceError(value, 'EXEC_FAILED') || isSluiceError(value, 'TIMEOUT')) &&
    typeof (value as SluiceError).info === 'object' &&
    (value as SluiceError).info !== null &&
    'exitCode' in ((value as SluiceError).info as object)
  );
}
