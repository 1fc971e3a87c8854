import { CancelledError } from '../../core/errors/cancelled-error.js';
import { ExecError } from '../../core/errors/exec-error.js';
import { SluiceError } from '../../core/errors/sluice-error.js';
import type { ExecResult } from '../../core/exec-result.js';
import { cgroupJoinFailed } from './cgroup-handle.js';
import type { ResolvedExecOptions } from './exec-options.js';
import type { OutputAccumulator } from './output-accumulator.js';
import type { ContainmentReport, ExecRlimits, ExitInfo } from './process-port.js';
import { quoteCommand } from './quote-command.js';
import { prlimitFailure, rlimitHit } from './rlimits.js';

/** What a run knows when it ends, from which {@link buildExecResult} builds the {@link ExecResult}. */
export interface ExecProcessRecord {
  readonly file: string;
  readonly args: readonly string[];
  readonly pid: number | undefined;
  readonly exit: ExitInfo;
  readonly timedOut: boolean;
  /** Whether sluice signalled the group before the leader exited (cancel or timeout). */
  readonly killedBySluice: boolean;
  readonly durationMs: number;
  readonly stdout: OutputAccumulator;
  readonly stderr: OutputAccumulator;
  readonly rlimits: ExecRlimits | undefined;
  /** What the handle told about containment (absent: a port without cgroups, see `ProcessHandle.containment`). */
  readonly containment?: ContainmentReport | undefined;
}

/**
 * Builds the result of a finished run: decodes the accumulated output, tells whether it was
 * truncated and which resource limit was hit, and quotes the command for display.
 *
 * @example
 * ```ts
 * const result = buildExecResult(record);
 * result.command; // "sh -c 'exit 3'"
 * ```
 */
export function buildExecResult(record: ExecProcessRecord): ExecResult {
  const stderr = record.stderr.text();
  return {
    command: quoteCommand(record.file, record.args),
    pid: record.pid,
    exitCode: record.exit.exitCode,
    signal: record.exit.signal,
    timedOut: record.timedOut,
    truncated: record.stdout.truncated || record.stderr.truncated,
    durationMs: record.durationMs,
    stdout: record.stdout.text(),
    stderr,
    rlimitHit: rlimitHit(record.rlimits, record.exit, stderr, record.killedBySluice),
    containment: record.containment?.containment ?? 'group',
    usage: record.containment?.usage ?? null,
    limitHit: record.containment?.limitHit ?? null,
  };
}

/**
 * How a finished exec run fails, or `undefined` when it ends with its `exit` event: cancelled
 * through `cancelSignal` (`cancelled` holds the signal's reason), refused by `prlimit`, unable to
 * join its cgroup, or — with `reject` — timed out, exited non-zero or hit a tree-wide limit.
 *
 * @example
 * ```ts
 * const error = execFailure(options, exit, result, undefined);
 * if (error === undefined) queue.push(exitEvent);
 * ```
 */
export function execFailure(
  options: Pick<ResolvedExecOptions, 'rlimits' | 'reject' | 'timeoutMs'>,
  exit: ExitInfo,
  result: ExecResult,
  cancelled: { readonly reason: unknown } | undefined,
): Error | undefined {
  if (cancelled !== undefined) return cancelledError(cancelled.reason, result, result.command);
  const refused =
    prlimitFailure(options.rlimits, exit, result.stdout, result.stderr) ?? cgroupJoinFailure(result);
  if (refused !== undefined) return refused;
  if (options.reject && (result.timedOut || result.exitCode !== 0 || result.limitHit !== null)) {
    return new ExecError(result, { timeoutMs: options.timeoutMs });
  }
  return undefined;
}

/**
 * The error of a run cancelled through `cancelSignal`, with what it produced so far (`result`,
 * when the run got that far).
 *
 * @example
 * ```ts
 * subscriber.error(cancelledError(signal.reason, undefined, 'make'));
 * ```
 */
export function cancelledError(
  reason: unknown,
  result: ExecResult | undefined,
  command: string,
): CancelledError<ExecResult> {
  const why = reason instanceof Error && reason.name !== 'AbortError' ? ` (${reason.message})` : '';
  return new CancelledError(`Command was cancelled${why}: ${command}`, { reason, result }, { cause: reason });
}

/**
 * Tells a run whose wrapper could not move into its cgroup (so the command never ran, see
 * {@link cgroupJoinFailed}) from a command that failed: the `CGROUP_UNAVAILABLE` error, or
 * `undefined`.
 *
 * @example
 * ```ts
 * const refused = prlimitFailure(rlimits, exit, result.stdout, result.stderr) ?? cgroupJoinFailure(result);
 * ```
 */
export function cgroupJoinFailure(result: ExecResult): SluiceError | undefined {
  if (result.containment !== 'cgroup' || result.stdout !== '') return undefined;
  const exit = { exitCode: result.exitCode, signal: result.signal };
  if (!cgroupJoinFailed(exit, result.stderr)) return undefined;
  const reason = result.stderr.trimEnd();
  return new SluiceError('CGROUP_UNAVAILABLE', `Cannot contain the run in a cgroup: ${reason}`, {
    info: { reason, result },
  });
}
