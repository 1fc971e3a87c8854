import { isSluiceError, SluiceError } from './sluice-error.js';

/** A run store's codes: no such run, another writer owns it, or the store itself failed. */
export type RunStoreErrorCode = 'RUN_NOT_FOUND' | 'RUN_EXISTS' | 'RUN_STORE_FAILED';

/** Details carried by a {@link RunStoreError}. */
export interface RunStoreErrorInfo {
  readonly runId: string;
}

/**
 * A run store could not do what was asked ({@link RunStoreErrorCode}); `cause` is the client's error.
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
