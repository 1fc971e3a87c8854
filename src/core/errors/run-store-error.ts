import { isSluiceError, SluiceError } from './sluice-error.js';

/**
 * What went wrong with a run store: the run does not exist (`RUN_NOT_FOUND`), another writer
 * already owns it (`RUN_EXISTS`), or the store itself failed — Redis unreachable for longer than
 * its retries, the run's data vanished (a restart without persistence), a write refused
 * (`RUN_STORE_FAILED`).
 */
export type RunStoreErrorCode = 'RUN_NOT_FOUND' | 'RUN_EXISTS' | 'RUN_STORE_FAILED';

/** Details carried by a {@link RunStoreError}. */
export interface RunStoreErrorInfo {
  readonly runId: string;
}

/**
 * A run store could not do what was asked (see {@link RunStoreErrorCode}). The `cause` is the
 * underlying client error, if any.
 *
 * @example
 * ```ts
 * import { RunStoreError } from 'sluice';
 * throw new RunStoreError('RUN_EXISTS', 'Run build-7 already has a writer', { info: { runId: 'build-7' } });
 * ```
 */
export class RunStoreError extends SluiceError<RunStoreErrorInfo> {
  constructor(
    code: RunStoreErrorCode,
    message: string,
    options: { info: RunStoreErrorInfo; cause?: unknown },
  ) {
    super(code, message, options);
  }

  override get name(): string {
    return 'RunStoreError';
  }
}

/**
 * Whether `value` is a {@link RunStoreError}, optionally with the given code.
 *
 * @example
 * ```ts
 * if (isRunStoreError(error, 'RUN_NOT_FOUND')) console.error('no such run');
 * ```
 */
export function isRunStoreError(value: unknown, code?: RunStoreErrorCode): value is RunStoreError {
  if (!isSluiceError(value) || value.name !== 'RunStoreError') return false;
  return code === undefined || value.code === code;
}
