import type { ExecResult } from '../../core/exec-result.js';
import type { ExecRlimits } from './exec-rlimits.js';
import type { OutputAccumulator } from './output-accumulator.js';
import type { ContainmentReport, ExitInfo } from './process-port.js';
import { quoteCommand } from './quote-command.js';
import { rlimitHit } from './rlimit-hit.js';

/** What a run knows when it ends, from which {@link buildExecResult} builds the {@link ExecResult}. */
export interface ExecRunRecord {
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
export function buildExecResult(record: ExecRunRecord): ExecResult {
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
