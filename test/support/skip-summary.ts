import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * vitest's global setup: collects the "skipping the tests that need …" notices of every test
 * process (test/support/system-tools.ts appends them to `SLUICE_SKIPPED_LOG`) and prints each one
 * once when the run ends, so what an ordinary machine did not run is the last thing `npm test`
 * says.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-skipped-'));
  const log = join(dir, 'notices.log');
  process.env.SLUICE_SKIPPED_LOG = log;
  return () => {
    let lines: string[] = [];
    try {
      lines = readFileSync(log, 'utf8').split('\n');
    } catch {
      // Nothing was skipped.
    }
    rmSync(dir, { recursive: true, force: true });
    const notices = [...new Set(lines.filter((line) => line !== ''))].sort();
    if (notices.length === 0) return;
    process.stderr.write(
      `\n[sluice tests] Not run on this machine (SLUICE_REQUIRE_SYSTEM_TOOLS=1 makes these failures):\n${notices
        .map((line) => `  - ${line.replace('[sluice tests] ', '')}`)
        .join('\n')}\n`,
    );
  };
}
