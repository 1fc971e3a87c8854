import { describeIssue } from './describe-issue.js';
import { isSluiceError, SluiceError } from './sluice-error.js';

/** Details carried by an {@link InvalidFrameError}. */
export interface InvalidFrameInfo {
  /** The dotted path of the offending field (`outcome.StreamChunk.sequence`), or `''` for the frame itself. */
  field: string;
  /** The offending value, as decoded (or the raw text when it was not JSON). */
  value: unknown;
}

/**
 * A wire frame could not be decoded: not JSON, not the expected shape, or a field out of range.
 * The message names the field and the value. Code `INVALID_FRAME`.
 *
 * @example
 * ```ts
 * import { InvalidFrameError } from 'sluice';
 * const error = new InvalidFrameError({ field: 'sequence', value: -1 }, 'must be a non-negative integer');
 * error.message; // 'Invalid frame: `sequence` must be a non-negative integer, got -1 (number)'
 * ```
 */
export class InvalidFrameError extends SluiceError<InvalidFrameInfo> {
  constructor(info: InvalidFrameInfo, problem: string, options: { cause?: unknown } = {}) {
    super('INVALID_FRAME', `Invalid frame: ${describeIssue({ ...info, problem }, 'the frame')}`, {
      info,
      cause: options.cause,
    });
  }

  override get name(): string {
    return 'InvalidFrameError';
  }
}

/**
 * Whether `value` is an {@link InvalidFrameError} (code `INVALID_FRAME`).
 *
 * @example
 * ```ts
 * if (isInvalidFrameError(error)) console.log(error.info?.field);
 * ```
 */
export function isInvalidFrameError(value: unknown): value is InvalidFrameError {
  return isSluiceError(value, 'INVALID_FRAME');
}
