import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';

const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

/** Starts the `sluice` CLI as a user would: its own Node process (TypeScript through tsx). */
export function startCli(args: readonly string[]): ResultPromise<{ reject: false; all: false }> {
  return execa(process.execPath, ['--import', 'tsx', main, ...args], { reject: false, all: false });
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
