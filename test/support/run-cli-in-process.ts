import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.js';

/** What {@link runCliInProcess} saw: the exit code and everything written to stdout and stderr. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `sluice <argv>` in this process (`runCli` with captured streams and `env` as the whole
 * environment): for command-line parsing and usage text, where a child process adds only time.
 * Spawn the real CLI (`startCli` in `sluice-cli.ts`) for anything about processes and signals.
 */
export async function runCliInProcess(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (data: Buffer) => {
    out += data;
  });
  stderr.on('data', (data: Buffer) => {
    err += data;
  });
  const code = await runCli(argv, { stdout, stderr }, env);
  return { code, stdout: out, stderr: err };
}
