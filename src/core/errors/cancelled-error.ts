import { isSluiceError, SluiceError } from './sluice-error.js';

/** Details carried by a {@link CancelledError}. */
export interface CancelledErrorInfo<R = unknown> {
  /** Why: the aborted signal's `reason` (an `AbortError` `DOMException` unless one was given). */
  readonly reason: unknown;
  /**
   * What the run had produced when it ended: `exec`'s {@link ExecResult} (the output so far, and
   * how the group died), `http`'s `HttpErrorInfo` (status, bytes read so far), the Exec tool's
   * result; `undefined` when it was cancelled before it started.
   */
  readonly result: R | undefined;
}

/**
 * A run was cancelled through its `cancelSignal` (execa's name), or the Exec tool through its
 * context's `signal`. Code `CANCELLED`. It is the stream's one terminal event, whatever `reject`
 * says, and comes after the kill sequence: `exec` sends `killSignal` to the group (then `SIGKILL`
 * after `forceKillAfterMs`), keeps delivering what the child wrote meanwhile, and errors once the
 * group exited and the pipes ended, with the partial result in `info.result`. `http` aborts the
 * request at once.
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
