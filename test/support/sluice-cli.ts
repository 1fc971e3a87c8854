import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { testDist } from './build-dist.js';

/**
 * The `sluice` CLI as built (`bin` of package.json), which vitest's global setup builds once per
 * run (test/support/build-dist.ts): a test runs what users run, with plain `node`.
 */
export const CLI = join(testDist(), 'cli', 'main.js');

/** Starts the `sluice` CLI as a user would: its own Node process, the built CLI. */
export function startCli(args: readonly string[]): ResultPromise<{ reject: false; all: false }> {
  return execa(process.execPath, [CLI, ...args], { reject: false, all: false });
}

/** The pids of live processes whose command line contains `tag` (any parent). */
export function processesTagged(tag: string): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  const pids: number[] = [];
  for (const line of out.split('\n')) {
    const [pid, stat, ...args] = line.trim().split(/\s+/);
    if (pid === undefined || stat === undefined || stat.startsWith('Z')) continue;
    const command = args.join(' ');
    if (command.includes(tag) && !command.includes('ps -eo')) pids.push(Number(pid));
  }
  return pids;
}

/** The outcomes of `--json` output (`sluice exec --json`, `sluice follow --json`: bridge frames), in order. */
export function outcomesOf(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{"callId"'))
    .map((line) => (JSON.parse(line) as { outcome: Record<string, unknown> }).outcome);
}

/** The sequences of the stream chunks of `--json` output (bridge frames), in order. */
export function sequencesOf(stdout: string): number[] {
  return outcomesOf(stdout)
    .filter((outcome) => outcome.stream === true)
    .map((outcome) => outcome.sequence as number);
}
