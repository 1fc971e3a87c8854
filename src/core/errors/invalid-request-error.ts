import { describeIssue } from './describe-issue.js';
import { isSluiceError, SluiceError } from './sluice-error.js';

/** Details carried by an {@link InvalidRequestError}. */
export interface InvalidRequestInfo {
  /** The dotted path of the offending field (`payload.buffer_size`), or `''` for the request itself. */
  field: string;
  /** The offending value (`undefined` when the field is missing). */
  value: unknown;
}

/**
 * A hostcall request (or its payload) is not valid: wrong shape, unknown kind, or a streaming
 * option out of range. The message names the field and the value. Code `INVALID_REQUEST`.
 *
 * @example
 * ```ts
 * import { InvalidRequestError } from 'sluice';
 * const error = new InvalidRequestError({ field: 'payload.buffer_size', value: 0 }, 'must be an integer ≥ 1');
 * error.message; // 'Invalid hostcall request: `payload.buffer_size` must be an integer ≥ 1, got 0 (number)'
 * ```
 */
export class InvalidRequestError extends SluiceError<InvalidRequestInfo> {
  constructor(info: InvalidRequestInfo, problem: string, options: { cause?: unknown } = {}) {
    super(
      'INVALID_REQUEST',
      `Invalid hostcall request: ${describeIssue({ ...info, problem }, 'the request')}`,
      {
        info,
        cause: options.cause,
      },
    );
  }

  override get name(): string {
    return 'InvalidRequestError';
  }
}

/**
 * Whether `value` is an {@link InvalidRequestError} (code `INVALID_REQUEST`).
 *
 * @example
 * ```ts
 * if (isInvalidRequestError(error)) console.log(error.info?.field);
 * ```
 */
export function isInvalidRequestError(value: unknown): value is InvalidRequestError {
  return isSluiceError(value, 'INVALID_REQUEST');
}
