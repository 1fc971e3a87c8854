import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliUsageError } from '../../../src/cli/cli-usage-error.js';
import { parseMcpArgs } from '../../../src/cli/mcp/parse-mcp-args.js';

describe('parseMcpArgs', () => {
  const here = realpathSync(mkdtempSync(join(tmpdir(), 'sluice-mcp-args-')));

  it('takes repeated --allow, a --cwd relative to the current directory, and --timeout-s', () => {
    expect(parseMcpArgs([], here)).toEqual({
      help: false,
      allow: [],
      cwd: here,
      timeoutS: 60,
      allowEnv: [],
      http: undefined,
    });
    expect(
      parseMcpArgs(
        ['--allow', 'npm', '--allow=git', '--allow', './build.sh', '--cwd', '.', '--timeout-s', '2.5'],
        here,
      ),
    ).toEqual({
      help: false,
      allow: ['npm', 'git', './build.sh'],
      cwd: here,
      timeoutS: 2.5,
      allowEnv: [],
      http: undefined,
    });
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

  it('takes --http with its address, allowed hosts and env names, Redis, and --no-token on loopback only', () => {
    expect(parseMcpArgs(['--http'], here).http).toEqual({
      host: '127.0.0.1',
      port: 0,
      allowHosts: [],
      redis: undefined,
      noToken: false,
      sessionIdleS: 1800,
    });
    expect(parseMcpArgs(['--http', '--session-idle-s', '2.5'], here).http?.sessionIdleS).toBe(2.5);
    const command = parseMcpArgs(
      [
        '--http',
        '--host',
        '0.0.0.0',
        '--port',
        '8080',
        '--allow-host',
        'mcp.example.com:443',
        '--allow-env',
        'CI',
        '--allow-env',
        'GREETING',
        '--redis',
        'redis://127.0.0.1:6379',
      ],
      here,
    );
    expect(command.allowEnv).toEqual(['CI', 'GREETING']);
    expect(command.http).toEqual({
      host: '0.0.0.0',
      port: 8080,
      allowHosts: ['mcp.example.com:443'],
      redis: { url: 'redis://127.0.0.1:6379' },
      noToken: false,
      sessionIdleS: 1800,
    });
    expect(parseMcpArgs(['--http', '--no-token'], here).http?.noToken).toBe(true);
    const cases: [string[], string][] = [
      [['--port', '80'], '`--port` needs `--http`'],
      [['--allow-env', 'CI'], '`--allow-env` needs `--http`'],
      [['--session-idle-s', '60'], '`--session-idle-s` needs `--http`'],
      ...['0.5', '0', '-5', 'soon', '1e3', '', '2147484'].map((value): [string[], string] => [
        ['--http', `--session-idle-s=${value}`],
        `Expected the \`--session-idle-s\` flag to be a number of seconds from 1 to 2147483, got \`${value}\` (string)`,
      ]),
      [
        ['--http', '--host', '0.0.0.0', '--no-token'],
        '`--no-token` is for a loopback host only (127.0.0.1, ::1, localhost), not `0.0.0.0`',
      ],
      [
        ['--http', '--port', '70000'],
        'Expected the `--port` flag to be a whole number from 0 to 65535, got `70000` (string)',
      ],
      [
        ['--http', '--allow-env', 'A=B'],
        'Expected the `--allow-env` flag to be an environment variable name, got `A=B` (string)',
      ],
      [
        ['--http', '--redis', 'http://x'],
        'Expected the `--redis` flag to be a redis:// or rediss:// URL, got `http://x` (string)',
      ],
      [
        ['--http', '--allow-host', 'a b'],
        'Expected the `--allow-host` flag to be a host name, optionally with :port, got `a b` (string)',
      ],
    ];
    for (const [argv, message] of cases) {
      expect(() => parseMcpArgs(argv, here)).toThrow(new CliUsageError(message));
    }
  });
});
