import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { CLI } from '../support/sluice-cli.js';

const sluice = (args: string[], options: { input?: string; env?: Record<string, string | undefined> } = {}) =>
  execa(process.execPath, [CLI, ...args], {
    reject: false,
    stripFinalNewline: false,
    ...options,
  });

describe('sluice exec: what the child gets', () => {
  it('FORCE_COLOR when sluice shows colours (not with --no-color, nor over one that is set)', async () => {
    const show = ['exec', '--', 'sh', '-c', 'echo "FORCE_COLOR=$' + '{FORCE_COLOR-unset}"'];
    const env = { FORCE_COLOR: undefined, NO_COLOR: undefined };
    expect((await sluice(['exec', '--color', ...show.slice(1)], { env })).stdout).toBe('FORCE_COLOR=1\n');
    expect((await sluice(['exec', '--no-color', ...show.slice(1)], { env })).stdout).toBe(
      'FORCE_COLOR=unset\n',
    );
    expect((await sluice(show, { env })).stdout).toBe('FORCE_COLOR=unset\n'); // piped: no colours
    expect((await sluice(['exec', '--color', ...show.slice(1)], { env: { FORCE_COLOR: '0' } })).stdout).toBe(
      'FORCE_COLOR=0\n',
    );
  });

  it("--stdin inherit hands sluice's stdin to the command (a prompt gets what is typed)", async () => {
    const prompt = ['sh', '-c', 'printf "name? "; read name; echo "hello $name"'];
    const piped = await sluice(['exec', '--stdin', 'inherit', '--', ...prompt], { input: 'Ada\n' });
    expect(piped.exitCode).toBe(0);
    expect(piped.stdout).toBe('name? hello Ada\n');
    const ignored = await sluice(['exec', '--', ...prompt], { input: 'Ada\n' });
    expect(ignored.stdout).toBe('name? hello \n'); // stdin ignored by default: read gets nothing
  });

  it('--version prints the package version', async () => {
    const result = await sluice(['--version']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^sluice \d+\.\d+\.\d+\n$/);
  });
});
