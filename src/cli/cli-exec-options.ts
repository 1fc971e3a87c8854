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
    ...(run.cwd === undefined ? {} : { cwd: run.cwd }),
    ...(signal === undefined ? {} : { cancelSignal: signal }),
  };
}
