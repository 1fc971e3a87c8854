import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { outcomesOf } from '../support/sluice-cli.js';
import { needs } from '../support/system-tools.js';

const isatty = ['python3', '-c', 'import sys; print(sys.stdout.isatty())'];

type Size = { columns: number; rows: number };

/**
 * Runs `sluice exec --tty [--json] -- <SIZES>` in this process with a stdout that says it is a
 * terminal of size `from` (the io given to runCli, not this process's own stdout); once the
 * output shows `seen`, resizes it to `to`, and once it shows `after`, lets the command end.
 */
async function onTerminal(flags: string[], from: Size, [seen, after]: [string, string], to: Size) {
  const gate = join(scratch, `gate-${from.columns}`);
  const stdout = Object.assign(new PassThrough(), { isTTY: true, ...from });
  const stderr = new PassThrough().resume();
  let text = '';
  stdout.on('data', (data: Buffer) => {
    text += data;
    if (!text.includes(seen)) return;
    if (stdout.columns !== to.columns) {
      Object.assign(stdout, to);
      stdout.emit('resize');
    } else if (text.includes(after)) writeFileSync(gate, '');
  });
  const argv = ['exec', '--tty', ...flags, '--', 'sh', '-c', SIZES, 'sizes', gate];
  const code = await runCli(argv, { stdout, stderr }, { PATH: process.env.PATH });
  return { code, stdout: text };
}

/**
 * Prints the terminal's size (`rows columns`), and again at each resize, until the gate file
 * (`$1`) exists. (`stty` sets the columns and the rows one after the other: a program may see a
 * resize half done first.)
 */
const SIZES = `trap 'stty size' WINCH; stty size; while [ ! -e "$1" ]; do sleep 0.02; done`;

/** The text of the stream chunks of `--json` output: what the terminal sent, read by read. */
const chunkText = (stdout: string) =>
  outcomesOf(stdout)
    .filter((outcome) => outcome.isFinal === false)
    .map((outcome) => outcome.chunk)
    .join('');

const scratch = mkdtempSync(join(tmpdir(), 'sluice-cli-tty-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

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
    expect(chunkText(result.stdout)).toBe('True\r\n');
  });

  it('without --tty the same command writes to a pipe', async () => {
    const result = await runCliInProcess(['exec', '--', ...isatty], { PATH: process.env.PATH });
    expect(result.stdout).toContain('False');
  });

  it("on a terminal: the command gets sluice's size less the status line's row, and each resize", async () => {
    const sizes: [string, string] = ['29 100', '39 120'];
    const { code, stdout } = await onTerminal([], { columns: 100, rows: 30 }, sizes, {
      columns: 120,
      rows: 40,
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/29 100\r\n[\s\S]*39 120\r\n/);
  });

  it('with --json (no status line) the whole size', async () => {
    const sizes: [string, string] = ['20 90', '10 70'];
    const { code, stdout } = await onTerminal(['--json'], { columns: 90, rows: 20 }, sizes, {
      columns: 70,
      rows: 10,
    });
    expect(code).toBe(0);
    expect(chunkText(stdout)).toMatch(/^20 90\r\n(20 70\r\n)?10 70\r\n$/);
  });
});
