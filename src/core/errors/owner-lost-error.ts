import { isSluiceError, SluiceError } from './sluice-error.js';

/** Details carried by an {@link OwnerLostError}. */
export interface OwnerLostInfo {
  readonly runId: string;
  /** The owner's id, when the store knew it. */
  readonly owner: string | undefined;
}

/**
 * A run's owner stopped renewing its lease, so the run was ended for everybody. Code `OWNER_LOST`:
 * a follower's terminal event, or a writer's when somebody else declared it lost (docs/scaling.md).
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
