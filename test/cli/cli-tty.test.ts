import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { outcomesOf } from '../support/sluice-cli.js';
import { needs } from '../support/system-tools.js';

const isatty = ['python3', '-c', 'import sys; print(sys.stdout.isatty())'];

/**
 * Runs `sluice <argv>` in this process with a stdout that says it is a terminal of `size` (as the
 * io given to runCli, not this process's own stdout); `then(stdout, text)` sees what came so far.
 */
async function onTerminal(
  argv: string[],
  size: { columns: number; rows: number },
  then: (stdout: PassThrough & { columns: number; rows: number }, text: string) => void,
): Promise<{ code: number; stdout: string }> {
  const stdout = Object.assign(new PassThrough(), { isTTY: true, ...size });
  const stderr = new PassThrough().resume();
  let text = '';
  stdout.on('data', (data: Buffer) => {
    text += data;
    then(stdout, text);
  });
  const code = await runCli(argv, { stdout, stderr }, { PATH: process.env.PATH });
  return { code, stdout: text };
}

/** Prints the terminal's size (`rows columns`), and again after the first resize, then exits. */
const SIZES = ['sh', '-c', "trap 'stty size; exit 0' WINCH; stty size; while :; do sleep 0.02; done"];

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
    // One chunk per read of the terminal: together, the text as the terminal sent it.
    const text = outcomesOf(result.stdout)
      .filter((outcome) => outcome.isFinal === false)
      .map((outcome) => outcome.chunk)
      .join('');
    expect(text).toBe('True\r\n');
  });

  it('without --tty the same command writes to a pipe', async () => {
    const result = await runCliInProcess(['exec', '--', ...isatty], { PATH: process.env.PATH });
    expect(result.stdout).toContain('False');
  });

  it("on a terminal: the command gets sluice's size less the status line's row, and each resize", async () => {
    let resized = false;
    const { code, stdout } = await onTerminal(
      ['exec', '--tty', '--', ...SIZES],
      { columns: 100, rows: 30 },
      (out, text) => {
        if (resized || !text.includes('29 100')) return;
        resized = true;
        Object.assign(out, { columns: 120, rows: 40 });
        out.emit('resize');
      },
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/29 100\r\n[\s\S]*39 120\r\n/);
  });

  it('with --json (no status line) the whole size', async () => {
    let resized = false;
    const { code, stdout } = await onTerminal(
      ['exec', '--tty', '--json', '--', ...SIZES],
      { columns: 90, rows: 20 },
      (out, text) => {
        if (resized || !text.includes('20 90')) return;
        resized = true;
        Object.assign(out, { columns: 70, rows: 10 });
        out.emit('resize');
      },
    );
    expect(code).toBe(0);
    const text = outcomesOf(stdout)
      .filter((outcome) => outcome.isFinal === false)
      .map((outcome) => outcome.chunk)
      .join('');
    expect(text).toBe('20 90\r\n10 70\r\n');
  });
});
