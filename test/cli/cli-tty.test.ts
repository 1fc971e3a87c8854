import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { needs } from '../support/system-tools.js';

const isatty = ['python3', '-c', 'import sys; print(sys.stdout.isatty())'];

describe.skipIf(!needs('linux', 'script', 'python3'))('sluice exec --tty', () => {
  it('runs the command on a terminal (text)', async () => {
    const result = await runCliInProcess(['exec', '--tty', '--', ...isatty], { PATH: process.env.PATH });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('True\r\n');
  });

  it('runs the command on a terminal (--json), its output as the terminal sent it', async () => {
    const result = await runCliInProcess(['exec', '--tty', '--json', '--', ...isatty], {
      PATH: process.env.PATH,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(JSON.stringify('True\r\n'));
  });

  it('without --tty the same command writes to a pipe', async () => {
    const result = await runCliInProcess(['exec', '--', ...isatty], { PATH: process.env.PATH });
    expect(result.stdout).toContain('False');
  });
});
