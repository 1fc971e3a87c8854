import { isSluiceError, SluiceError } from './sluice-error.js';

/** Details carried by a {@link SpawnError}. */
export interface SpawnErrorInfo {
  /** The OS error code (`ENOENT`, `EACCES`, `ENOTDIR`, …), or `'UNKNOWN'`. */
  errno: string;
  file: string;
  /** The working directory it was to run in, if one was given. */
  cwd: string | undefined;
  /** The system call that failed (`'spawn'`, or `'spawn <file>'` as Node names it), when the OS said. */
  syscall?: string;
  /** The path the OS reported with the error, when it gave one. */
  path?: string;
}

/**
 * A command could not be started at all (no such file, not executable, a missing `cwd`, `E2BIG`,
 * …). Code `SPAWN_FAILED`; `info.errno` is the OS code. A run that cannot start never hangs.
 *
 * @example
 * ```ts
 * import { exec, isSpawnError } from 'sluice';
 * exec('no-such-command').subscribe({
 *   error: (error) => {
 *     if (isSpawnError(error)) console.log(error.info?.errno); // 'ENOENT'
 *   },
 * });
 * ```
 */
export class SpawnError extends SluiceError<SpawnErrorInfo> {
  constructor(info: SpawnErrorInfo, options: { cause?: unknown; detail?: string } = {}) {
    const detail = options.detail === undefined ? '' : `: ${options.detail}`;
    super('SPAWN_FAILED', `Command failed to spawn with ${info.errno}: ${info.file}${detail}`, {
      info,
      cause: options.cause,
    });
  }

  override get name(): string {
    return 'SpawnError';
  }
}

/**
 * Whether `value` is a {@link SpawnError} (code `SPAWN_FAILED`), in any realm.
 *
 * @example
 * ```ts
 * if (isSpawnError(error) && error.info?.errno === 'ENOENT') console.log('not installed');
 * ```
 */
export function isSpawnError(value: unknown): value is SpawnError {
  return isSluiceError(value, 'SPAWN_FAILED');
}
