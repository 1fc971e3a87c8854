import { constants } from 'node:os';
import { isCancelledError } from '../core/errors/cancelled-error.js';
import { isExecError } from '../sources/exec/exec-error.js';
import type { CliInterruption } from './cli-interruption.js';

/**
 * The exit code the CLI uses to mirror a child's end, as shells do: the child's own code,
 * `128 + n` after signal `n`, `124` after a timeout or a stall, `127` when the command was not
 * found and `126` when it could not be run.
 */
export function mirrorExitCode(end: {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  errno?: string;
  stalled?: boolean;
}): number {
  if (end.errno !== undefined) return end.errno === 'ENOENT' ? 127 : 126;
  if (end.timedOut || end.stalled) return 124;
  if (end.exitCode !== null) return end.exitCode;
  const signals = constants.signals as Record<string, number>;
  const number = end.signal === null ? undefined : signals[end.signal];
  return number === undefined ? 1 : 128 + number;
}

/**
 * The exit code for a run that ended with `error` instead of an exit event, by the rule of
 * {@link mirrorExitCode}, so that `sluice follow` of a run exits as `sluice exec` of it did: 127
 * or 126 for `SPAWN_FAILED` (the OS code from `info.errno`, or from the message of a failure read
 * back from a store), 124 after a timeout or a stall, 130 for a cancel, else 1.
 */
export function failureExitCode(error: unknown): number {
  const { code, message, info } = (error ?? {}) as {
    code?: unknown;
    message?: unknown;
    info?: { errno?: unknown };
  };
  if (code === 'SPAWN_FAILED') {
    const errno =
      info?.errno ?? (typeof message === 'string' ? /spawn with (\w+)/.exec(message)?.[1] : undefined);
    return mirrorExitCode({ exitCode: null, signal: null, timedOut: false, errno: String(errno) });
  }
  if (code === 'TIMEOUT' || code === 'STREAM_STALLED') return 124;
  if (code === 'CANCELLED' || code === 'STREAM_CANCELLED') return 130;
  return 1;
}

/**
 * The exit code of a run the CLI watched end with `error`: 128 + the signal for a cancel by the
 * CLI's own {@link CliInterruption}, the child's mirrored end for an `ExecError`, else
 * {@link failureExitCode}.
 */
export function errorExitCode(error: unknown, interruption: CliInterruption | undefined): number {
  if (interruption !== undefined && isCancelledError(error)) return interruption.exitCode;
  if (isExecError(error)) return mirrorExitCode(error.result);
  return failureExitCode(error);
}
