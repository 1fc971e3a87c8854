import { isSluiceError, SluiceError } from './sluice-error.js';

/** Details carried by a {@link CancelledError}. */
export interface CancelledErrorInfo<R = unknown> {
  /** Why: the aborted signal's `reason` (an `AbortError` `DOMException` unless one was given). */
  readonly reason: unknown;
  /** What the run had produced (`exec`'s `ExecResult`, `http`'s `HttpErrorInfo`, …); `undefined` before it started. */
  readonly result: R | undefined;
}

/**
 * A run was cancelled through its `cancelSignal`, or the Exec tool through its context's `signal`.
 * Code `CANCELLED`, whatever `reject` says. `exec` errors with it after the kill sequence, once the
 * group exited and the pipes ended, the partial result in `info.result`; `http` at once.
 *
 * @example
 * ```ts
 * import { exec, isCancelledError } from 'sluice';
 * const controller = new AbortController();
 * exec('sh', ['-c', 'echo started; sleep 60'], { cancelSignal: controller.signal }).subscribe({
 *   next: () => controller.abort(),
 *   error: (error) => {
 *     if (isCancelledError(error)) console.log(error.result?.stdout); // 'started\n'
 *   },
 * });
 * ```
 */
export class CancelledError<R = unknown> extends SluiceError<CancelledErrorInfo<R>> {
  constructor(message: string, info: CancelledErrorInfo<R>, options: { cause?: unknown } = {}) {
    super('CANCELLED', message, { info, cause: options.cause });
  }

  override get name(): string {
    return 'CancelledError';
  }

  /** The partial result (same as `info.result`). */
  get result(): R | undefined {
    return this.info?.result;
  }
}

/**
 * Whether `value` is a {@link CancelledError} (code `CANCELLED`), in any realm.
 *
 * @example
 * ```ts
 * if (isCancelledError(error)) console.log('cancelled:', error.info?.reason);
 * ```
 */
export function isCancelledError(value: unknown): value is CancelledError {
  return isSluiceError(value, 'CANCELLED');
}
