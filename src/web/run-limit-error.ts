import { isSluiceError, SluiceError } from '../core/errors/sluice-error.js';

/** Details carried by a {@link RunLimitError}. */
export interface RunLimitInfo {
  /** Which limit: `maxRuns` (runs not yet ended) or `maxViewers` (viewers of one run). */
  limit: 'maxRuns' | 'maxViewers';
  /** Its value. */
  max: number;
}

/**
 * A run registry refused to start a run or attach a viewer: one of its limits is reached. Code
 * `RUN_LIMIT`; the web handler answers `429 Too Many Requests`.
 *
 * @example
 * ```ts
 * import { RunLimitError } from 'sluice/web';
 * const error = new RunLimitError({ limit: 'maxRuns', max: 8 });
 * error.message; // 'Run limit reached: 8 runs are already running (maxRuns)'
 * ```
 */
export class RunLimitError extends SluiceError<RunLimitInfo> {
  constructor(info: RunLimitInfo) {
    const what =
      info.limit === 'maxRuns'
        ? `${info.max} runs are already running`
        : `this run already has ${info.max} viewers`;
    super('RUN_LIMIT', `Run limit reached: ${what} (${info.limit})`, { info });
  }

  override get name(): string {
    return 'RunLimitError';
  }
}

/**
 * Whether `value` is a {@link RunLimitError} (code `RUN_LIMIT`).
 *
 * @example
 * ```ts
 * try { registry.start(exec('make')); } catch (error) { if (isRunLimitError(error)) res.writeHead(429).end(); }
 * ```
 */
export function isRunLimitError(value: unknown): value is RunLimitError {
  return isSluiceError(value, 'RUN_LIMIT');
}
