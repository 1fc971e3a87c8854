import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How a notice's line in `SLUICE_SKIPPED_LOG` starts: whether `SLUICE_REQUIRE_SYSTEM_TOOLS=1` makes its skip a failure. */
export const SKIP_KIND = { tool: 'tool', machine: 'machine' } as const;

/**
 * vitest's global setup: collects the "skipping the tests that need …" notices of every test
 * process (test/support/system-tools.ts appends them to `SLUICE_SKIPPED_LOG`) and prints each one
 * once when the run ends, so what an ordinary machine did not run is the last thing `npm test`
 * says — and whether `SLUICE_REQUIRE_SYSTEM_TOOLS=1` would have made it a failure.
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
    const summary = skipSummary(lines);
    if (summary !== '') process.stderr.write(summary);
  };
}

/**
 * What the run did not run, from the log's lines (`<kind>\t<notice>`, test/support/system-tools.ts):
 * each notice once, under what `SLUICE_REQUIRE_SYSTEM_TOOLS=1` does with it — a missing tool is a
 * failure there, a kernel feature this machine does not enable stays a skip. `''` when nothing
 * was skipped.
 *
 * @example
 * ```ts
 * skipSummary(['tool\t[sluice tests] tmux not found: skipping …']);
 * // '\n[sluice tests] Not run on this machine, for want of a tool (SLUICE_REQUIRE_SYSTEM_TOOLS=1 makes these failures):\n  - tmux not found: skipping …\n'
 * ```
 */
export function skipSummary(lines: readonly string[]): string {
  const byKind = new Map<string, Set<string>>([
    [SKIP_KIND.tool, new Set()],
    [SKIP_KIND.machine, new Set()],
  ]);
  for (const line of lines) {
    const tab = line.indexOf('\t');
    if (tab === -1) continue;
    byKind.get(line.slice(0, tab))?.add(line.slice(tab + 1).replace('[sluice tests] ', ''));
  }
  const section = (title: string, notices: ReadonlySet<string>): string =>
    notices.size === 0
      ? ''
      : `\n[sluice tests] ${title}:\n${[...notices]
          .sort()
          .map((notice) => `  - ${notice}`)
          .join('\n')}\n`;
  return (
    section(
      'Not run on this machine, for want of a tool (SLUICE_REQUIRE_SYSTEM_TOOLS=1 makes these failures)',
      byKind.get(SKIP_KIND.tool) as Set<string>,
    ) +
    section(
      'Not run on this machine, which does not enable what they test (no install brings it: skipped under SLUICE_REQUIRE_SYSTEM_TOOLS=1 too)',
      byKind.get(SKIP_KIND.machine) as Set<string>,
    )
  );
}
