import { describe, expect, it } from 'vitest';
import { CliUsageError } from '../../src/cli/cli-usage-error.js';
import { parseExecArgs } from '../../src/cli/parse-args.js';

describe('parseExecArgs', () => {
  it('parses exec with defaults', () => {
    expect(parseExecArgs(['--', 'make', '-j2', '--silent'])).toEqual({
      command: 'exec',
      file: 'make',
      args: ['-j2', '--silent'],
      json: false,
      wire: 'bridge',
      callId: 'sluice-1',
      timeoutMs: 0,
      maxOutputBytes: 262_144,
      bufferSize: 16,
      stallTimeoutMs: 0,
      cwd: undefined,
      containment: 'auto',
      color: undefined,
      stdin: 'ignore',
      tty: false,
      web: undefined,
      redis: undefined,
      redisStore: undefined,
      redisStrict: false,
      runId: undefined,
    });
  });

  it('parses --containment', () => {
    expect(parseExecArgs(['--containment', 'cgroup', '--', 'sh']).containment).toBe('cgroup');
    expect(() => parseExecArgs(['--containment', 'jail', '--', 'sh'])).toThrow(
      new CliUsageError(
        'Expected the `--containment` flag to be `auto` or `cgroup` or `group`, got `jail` (string)',
      ),
    );
  });

  it('parses --stdin', () => {
    expect(parseExecArgs(['--stdin', 'inherit', '--', 'sh']).stdin).toBe('inherit');
    expect(() => parseExecArgs(['--stdin', 'tty', '--', 'sh'])).toThrow(
      new CliUsageError('Expected the `--stdin` flag to be `inherit` or `ignore`, got `tty` (string)'),
    );
  });

  it('parses --web with its address flags, which need it', () => {
    const web = (argv: string[]) => parseExecArgs(argv).web;
    expect(web(['--web', '--', 'make'])).toEqual({
      host: '127.0.0.1',
      port: 0,
      allowHosts: [],
    });
    expect(
      web([
        '--web',
        '--host',
        '0.0.0.0',
        '--port',
        '8080',
        '--allow-host',
        'box.lan',
        '--allow-host',
        'box',
        '--',
        'make',
      ]),
    ).toEqual({ host: '0.0.0.0', port: 8080, allowHosts: ['box.lan', 'box'] });
    expect(() => parseExecArgs(['--port', '8080', '--', 'make'])).toThrow(
      new CliUsageError('`--port` needs `--web`'),
    );
    expect(() => parseExecArgs(['--web', '--json', '--', 'make'])).toThrow(
      new CliUsageError('`--web` cannot be combined with `--json`'),
    );
    expect(() => parseExecArgs(['--web', '--port', '70000', '--', 'make'])).toThrow(
      new CliUsageError(
        'Expected the `--port` flag to be a whole number from 0 to 65535, got `70000` (string)',
      ),
    );
  });

  it('parses --redis and --run-id (publish the run)', () => {
    expect(
      parseExecArgs(['--redis', 'redis://127.0.0.1:6379', '--run-id', 'build-7', '--', 'make']),
    ).toMatchObject({
      redis: 'redis://127.0.0.1:6379',
      runId: 'build-7',
      file: 'make',
    });
    expect(parseExecArgs(['--', 'ls'])).toMatchObject({ redis: undefined, runId: undefined });
  });

  it('parses every flag', () => {
    const parsed = parseExecArgs([
      '--json',
      '--wire',
      'serde',
      '--call-id',
      'hc-7',
      '--timeout-ms',
      '5000',
      '--max-output-bytes',
      '1024',
      '--buffer-size',
      '4',
      '--stall-timeout-ms',
      '200',
      '--cwd',
      '/tmp',
      '--no-color',
      '--',
      'ls',
    ]);
    expect(parsed).toMatchObject({
      json: true,
      wire: 'serde',
      callId: 'hc-7',
      timeoutMs: 5000,
      maxOutputBytes: 1024,
      bufferSize: 4,
      stallTimeoutMs: 200,
      cwd: '/tmp',
      color: false,
      file: 'ls',
    });
  });

  it.each([
    [['--run-id', 'x', '--', 'ls'], '`--run-id` needs `--redis <url>`'],
    [
      ['--redis', 'http://x', '--', 'ls'],
      'Expected the `--redis` flag to be a redis:// or rediss:// URL, got `http://x` (string)',
    ],
    [
      ['--redis', 'redis://h', '--run-id', 'a{b}', '--', 'ls'],
      'Expected the `--run-id` flag to be 1-200 letters',
    ],
    [['--max-bytes', '100', '--', 'ls'], '`--max-bytes` needs `--redis <url>`'],
    [[], 'Missing the command to run'],
    [
      ['--timeout-ms', 'soon', '--', 'ls'],
      'Expected the `--timeout-ms` flag to be a whole number from 0 to 2147483647, got `soon` (string)',
    ],
    [
      ['--buffer-size', '0', '--', 'ls'],
      'Expected the `--buffer-size` flag to be a whole number from 1 to 1000000, got `0` (string)',
    ],
    [
      ['--wire', 'xml', '--', 'ls'],
      'Expected the `--wire` flag to be `bridge` or `serde`, got `xml` (string)',
    ],
    [
      ['--timeout-ms', '3000000000', '--', 'ls'],
      'Expected the `--timeout-ms` flag to be a whole number from 0 to 2147483647, got `3000000000` (string)',
    ],
    [
      ['--stall-timeout-ms', '2147483648', '--', 'ls'],
      'Expected the `--stall-timeout-ms` flag to be a whole number from 0 to 2147483647, got `2147483648` (string)',
    ],
    [['--frobnicate', '--', 'ls'], 'Unknown `--frobnicate` flag'],
    [
      ['--timeout-ms', '--', 'ls'],
      'Expected the `--timeout-ms` flag to be followed by its value, got nothing',
    ],
  ])('rejects %j with a clear message', (argv, message) => {
    expect(() => parseExecArgs(argv)).toThrow(CliUsageError);
    expect(() => parseExecArgs(argv)).toThrow(message);
  });

  // Each of these answered in node:util parseArgs' words before; each is sluice's template now.
  it.each([
    [['--timeout', '5', '--', 'ls'], 'Unknown `--timeout` flag (did you mean `--timeout-ms`?)'],
    [
      ['--stal-timeout-ms', '5', '--', 'ls'],
      'Unknown `--stal-timeout-ms` flag (did you mean `--stall-timeout-ms`?)',
    ],
    [['--nope', '--', 'ls'], 'Unknown `--nope` flag'],
    [
      ['--timeout-ms', '-5', '--', 'ls'],
      'Expected the `--timeout-ms` flag to be a whole number from 0 to 2147483647, got `-5` (string)',
    ],
    [
      ['--stall-timeout-ms', '-1', '--', 'ls'],
      'Expected the `--stall-timeout-ms` flag to be a whole number from 0 to 2147483647, got `-1` (string)',
    ],
    [['--timeout-ms'], 'Expected the `--timeout-ms` flag to be followed by its value, got nothing'],
    [
      ['--redis', '--run-id', 'x', '--', 'ls'],
      'Expected the `--redis` flag to be followed by its value, got the flag `--run-id`',
    ],
    [
      ['--json=yes', '--', 'ls'],
      'Expected the `--json` flag to be given without a value, got `yes` (string)',
    ],
  ])('refuses %j in sluice’s words, naming the flag', (argv, message) => {
    expect(() => parseExecArgs(argv)).toThrow(new CliUsageError(message));
  });
});
