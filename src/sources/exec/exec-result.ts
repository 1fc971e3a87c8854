import type { ExecResult, ExecRlimits } from './exec-types.js';
import type { OutputAccumulator } from './output-accumulator.js';
import type { ExitInfo } from './process-port.js';
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
    command: [record.file, ...record.args].map(quote).join(' '),
    pid: record.pid,
    exitCode: record.exit.exitCode,
    signal: record.exit.signal,
    timedOut: record.timedOut,
    truncated: record.stdout.truncated || record.stderr.truncated,
    durationMs: record.durationMs,
    stdout: record.stdout.text(),
    stderr,
    rlimitHit: rlimitHit(record.rlimits, record.exit, stderr, record.killedBySluice),
  };
}

function quote(word: string): string {
  if (word !== '' && /^[\w./:=@%+,-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
