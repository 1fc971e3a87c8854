import { fromEvent, map } from 'rxjs';
import type { CliExecCommand } from './parse-args.js';

/**
 * The `exec` options every way of running `sluice exec` shares (text, `--json`, `--redis --json`),
 * read from its command line: one place, so that a flag such as `--containment` reaches them all.
 *
 * @example
 * ```ts
 * exec(run.file, run.args, { ...cliExecOptions(run, signal), reject: true });
 * ```
 */
export function cliExecOptions(run: CliExecCommand, signal: AbortSignal | undefined) {
  return {
    timeoutMs: run.timeoutMs,
    maxOutputBytes: run.maxOutputBytes,
    containment: run.containment,
    ...(run.tty ? { tty: terminalSize() } : {}),
    ...(run.cwd === undefined ? {} : { cwd: run.cwd }),
    ...(signal === undefined ? {} : { cancelSignal: signal }),
  };
}

/**
 * `--tty`: a terminal of sluice's own size, resized with it, when sluice's stdout is a terminal;
 * 80 × 24 otherwise (docs/terminal.md).
 */
function terminalSize() {
  const { stdout } = process;
  if (!stdout.isTTY) return { columns: 80, rows: 24 };
  const size = () => ({ columns: stdout.columns, rows: stdout.rows });
  return { ...size(), resize: fromEvent(stdout, 'resize').pipe(map(size)) };
}
