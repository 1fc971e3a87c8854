import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildPackage, installDist } from '../test/support/build-dist.js';

/** Wall and CPU (user + system) time of one whole process, in ms. */
export interface StartTimes {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/**
 * The commands of the start-up variants, in a folder where `sluice` is the package as built —
 * built here as `npm run build` does, without type declarations, or a copy of `dist` when given
 * one (the smoke test's, which vitest's global setup built): bare `node -e 0`, `sluice exec --
 * true` from the built `dist/cli/main.js`, and the same small script on sluice and on execa
 * (`bench/fixtures/start-*.mjs`).
 *
 * @example
 * ```ts
 * const { cwd, commands } = await prepareStart('/work/main');
 * await timeProcess(commands['start-cli'], cwd);
 * ```
 */
export async function prepareStart(
  root: string,
  dist?: string,
): Promise<{ cwd: string; commands: Readonly<Record<string, readonly string[]>> }> {
  const cwd = join(root, 'node_modules', '.cache', 'sluice-bench', 'start');
  mkdirSync(cwd, { recursive: true });
  const packageDir = join(cwd, 'node_modules', 'sluice');
  if (dist === undefined) await buildPackage(packageDir, 'code');
  else installDist(cwd, dist);
  for (const name of ['start-sluice.mjs', 'start-execa.mjs']) {
    copyFileSync(join(root, 'bench', 'fixtures', name), join(cwd, name));
  }
  const node = process.execPath;
  return {
    cwd,
    commands: {
      'start-node': [node, '-e', '0'],
      'start-cli': [node, join(packageDir, 'dist', 'cli', 'main.js'), 'exec', '--', 'true'],
      'start-execa-script': [node, 'start-execa.mjs'],
      'start-sluice-script': [node, 'start-sluice.mjs'],
    },
  };
}

/**
 * Runs `command` once as a whole process and reports its wall and CPU time, as bash's `time`
 * measures them (the process alone: not bash, not the runner's spawn). The CPU time is the one to
 * read on a loaded machine: other processes stretch the wall time, much less the CPU time.
 * Rejects when the command fails, or when a script did not print `hello`.
 *
 * @example
 * ```ts
 * await timeProcess([process.execPath, '-e', '0'], '/tmp'); // { wallMs: 41, cpuMs: 38 }
 * ```
 */
export async function timeProcess(command: readonly string[], cwd: string): Promise<StartTimes> {
  const { stdout, stderr } = await promisify(execFile)(
    'bash',
    ['-c', `TIMEFORMAT='%3R %3U %3S'; time "$@" 2>/dev/null`, 'bash', ...command],
    { cwd, encoding: 'utf8' },
  );
  if (command.some((arg) => arg.endsWith('.mjs')) && stdout !== 'hello\n') {
    throw new Error(`${command.join(' ')} printed ${JSON.stringify(stdout)}, not "hello"`);
  }
  const [real, user, system] = (stderr.trim().split('\n').pop() ?? '').split(' ').map(Number);
  if (
    real === undefined ||
    user === undefined ||
    system === undefined ||
    Number.isNaN(real + user + system)
  ) {
    throw new Error(`no timing from bash: ${stderr.trim()}`);
  }
  return { wallMs: real * 1000, cpuMs: (user + system) * 1000 };
}
