import { isSluiceError, SluiceError } from './sluice-error.js';

/** Details carried by an {@link OwnerLostError}. */
export interface OwnerLostInfo {
  readonly runId: string;
  /** The owner's id, when the store knew it. */
  readonly owner: string | undefined;
}

/**
 * A run's owner (the process that ran the command and wrote its events) stopped renewing its
 * lease, so the run was ended for everybody instead of leaving followers waiting forever. Code
 * `OWNER_LOST`. A follower gets it as the run's terminal event; a writer gets it when somebody
 * else already declared it lost (it was cut off longer than its lease) and stops its source.
 * See `docs/scaling.md`.
 *
 * @example
 * ```ts
 * import { OwnerLostError } from 'sluice';
 * const error = new OwnerLostError({ runId: 'build-7', owner: 'worker-2' });
 * error.message; // 'Run build-7 lost its owner worker-2 (its lease expired)'
 * ```
 */
export class OwnerLostError extends SluiceError<OwnerLostInfo> {
  constructor(info: OwnerLostInfo, message?: string) {
    const owner = info.owner === undefined ? 'its owner' : `its owner ${info.owner}`;
    super('OWNER_LOST', message ?? `Run ${info.runId} lost ${owner} (its lease expired)`, { info });
  }

  override get name(): string {
    return 'OwnerLostError';
  }
}

/**
 * Whether `value` is an {@link OwnerLostError} (code `OWNER_LOST`).
 *
 * @example
 * ```ts
 * if (isOwnerLostError(error)) console.error('the worker running it died');
 * ```
 */
export function isOwnerLostError(value: unknown): value is OwnerLostError {
  return isSluiceError(value, 'OWNER_LOST');
}
