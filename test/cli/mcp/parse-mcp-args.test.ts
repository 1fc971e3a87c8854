import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliUsageError } from '../../../src/cli/cli-usage-error.js';
import { parseMcpArgs } from '../../../src/cli/mcp/parse-mcp-args.js';

describe('parseMcpArgs', () => {
  const here = realpathSync(mkdtempSync(join(tmpdir(), 'sluice-mcp-args-')));

  it('takes repeated --allow, a --cwd relative to the current directory, and --timeout-s', () => {
    expect(parseMcpArgs([], here)).toEqual({ help: false, allow: [], cwd: here, timeoutS: 60 });
    expect(
      parseMcpArgs(
        ['--allow', 'npm', '--allow=git', '--allow', './build.sh', '--cwd', '.', '--timeout-s', '2.5'],
        here,
      ),
    ).toEqual({ help: false, allow: ['npm', 'git', './build.sh'], cwd: here, timeoutS: 2.5 });
    expect(parseMcpArgs(['-h'], here).help).toBe(true);
  });

  it('refuses a bad command line with a usage error naming the flag', () => {
    const file = join(here, 'file');
    writeFileSync(file, '');
    const cases: [string[], string][] = [
      [['--allow', ''], 'Expected the `--allow` flag to be a program name or path, got `` (string)'],
      [['--cwd', file], `Expected the \`--cwd\` flag to be a directory, got \`${file}\` (string)`],
      [
        ['--timeout-s', '0'],
        'Expected the `--timeout-s` flag to be a number of seconds in (0, 600], got `0` (string)',
      ],
      [
        ['--timeout-s', '601'],
        'Expected the `--timeout-s` flag to be a number of seconds in (0, 600], got `601` (string)',
      ],
      [
        ['--timeout-s', '1e3'],
        'Expected the `--timeout-s` flag to be a number of seconds in (0, 600], got `1e3` (string)',
      ],
    ];
    for (const [argv, message] of cases)
      expect(() => parseMcpArgs(argv, here)).toThrow(new CliUsageError(message));
    expect(() => parseMcpArgs(['--allow'], here)).toThrow(CliUsageError);
    expect(() => parseMcpArgs(['--allowed', 'npm'], here)).toThrow(CliUsageError);
    expect(() => parseMcpArgs(['npm'], here)).toThrow(CliUsageError);
  });
});
