import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * vitest's global setup: the tests start `python3` by name hundreds of times (children whose
 * writes block on a full pipe). Where `python3` on `PATH` is a version manager's shim (pyenv's is
 * a bash script that runs several more before Python: ten times Python's own start-up, seconds
 * on a loaded machine), every one of those starts pays for it. The interpreter the shim picks is
 * asked for once, and a folder holding only `python3`, linked to it, goes first on the `PATH` of
 * the test processes and of the children they start. Nothing changes where `python3` is the
 * interpreter itself, or missing (the tests that need it are skipped: test/support/system-tools.ts).
 */
export default function setup(): (() => void) | undefined {
  const asked = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  const interpreter = asked.status === 0 ? asked.stdout.trim() : '';
  if (interpreter === '') return undefined;
  const folder = mkdtempSync(join(tmpdir(), 'sluice-python-'));
  symlinkSync(interpreter, join(folder, 'python3'));
  process.env.PATH = [folder, process.env.PATH].join(delimiter);
  return () => rmSync(folder, { recursive: true, force: true });
}
