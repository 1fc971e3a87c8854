import { OwnerLostError } from '../core/errors/owner-lost-error.js';
import { isSluiceError, SluiceError } from '../core/errors/sluice-error.js';
import type { RunFailure } from './run-record.js';

/**
 * The {@link RunFailure} a store keeps for `error`: its sluice `code` (`'STREAM_FAILED'` for an
 * error without one), class name and message — what the SSE `failure` frame carries too.
 *
 * @example
 * ```ts
 * import { SluiceError, toRunFailure } from 'sluice';
 * toRunFailure(new SluiceError('TIMEOUT', 'Command timed out after 100ms'));
 * // { code: 'TIMEOUT', name: 'SluiceError', message: 'Command timed out after 100ms' }
 * ```
 */
export function toRunFailure(error: unknown): RunFailure {
  return {
    code: isSluiceError(error) ? error.code : 'STREAM_FAILED',
    name: error instanceof Error ? error.name : 'Error',
    message: error instanceof Error ? error.message : String(error),
  };
}

/**
 * The error a follower of run `runId` ends with when the run failed: an {@link OwnerLostError}
 * for `OWNER_LOST`, otherwise a `SluiceError` with the stored `code` and `message` (and the
 * original class name in `info.name`).
 *
 * @example
 * ```ts
 * import { runFailureError } from 'sluice';
 * runFailureError({ code: 'EXEC_FAILED', name: 'ExecError', message: 'exit code 2' }, 'build-7').code; // 'EXEC_FAILED'
 * ```
 */
export function runFailureError(failure: RunFailure, runId: string): SluiceError {
  if (failure.code === 'OWNER_LOST') return new OwnerLostError({ runId, owner: undefined }, failure.message);
  return new SluiceError(failure.code, failure.message, { info: { runId, name: failure.name } });
}
