import { constants } from 'node:os';

/**
 * The exit code the CLI uses to mirror a child's end, as shells do: the child's own code,
 * `128 + n` after signal `n`, `124` after a timeout or a stall, `127` when the command was not
 * found and `126` when it could not be run.
 *
 * @example
 * ```ts
 * mirrorExitCode({ exitCode: null, signal: 'SIGTERM', timedOut: false }); // 143
 * ```
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
