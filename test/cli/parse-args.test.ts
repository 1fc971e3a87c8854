import { describe, expect, it } from 'vitest';
import { CliUsageError } from '../../src/cli/cli-usage-error.js';
import { type CliExecCommand, parseCliArgs } from '../../src/cli/parse-args.js';

describe('parseCliArgs', () => {
  it('runs the demo with no arguments and shows help on --help', () => {
    expect(parseCliArgs([])).toEqual({ command: 'demo' });
    expect(parseCliArgs(['--help'])).toEqual({ command: 'help' });
    expect(parseCliArgs(['exec', '--help'])).toEqual({ command: 'help', topic: 'exec' });
  });

  it('parses exec with defaults', () => {
    expect(parseCliArgs(['exec', '--', 'make', '-j2', '--silent'])).toEqual({
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
      web: undefined,
      redis: undefined,
      redisStore: undefined,
      redisStrict: false,
      runId: undefined,
    });
  });

  it('parses --containment', () => {
    expect(
      (parseCliArgs(['exec', '--containment', 'cgroup', '--', 'sh']) as CliExecCommand).containment,
    ).toBe('cgroup');
    expect(() => parseCliArgs(['exec', '--containment', 'jail', '--', 'sh'])).toThrow(
      new CliUsageError(
        'Expected the `--containment` flag to be `auto` or `cgroup` or `group`, got `jail` (string)',
      ),
    );
  });

  it('parses --version and --stdin', () => {
    expect(parseCliArgs(['--version'])).toEqual({ command: 'version' });
    expect(parseCliArgs(['-V'])).toEqual({ command: 'version' });
    expect((parseCliArgs(['exec', '--stdin', 'inherit', '--', 'sh']) as CliExecCommand).stdin).toBe(
      'inherit',
    );
    expect(() => parseCliArgs(['exec', '--stdin', 'tty', '--', 'sh'])).toThrow(
      new CliUsageError('Expected the `--stdin` flag to be `inherit` or `ignore`, got `tty` (string)'),
    );
  });

  it('parses --web with its address flags, which need it', () => {
    const web = (argv: string[]) => (parseCliArgs(argv) as CliExecCommand).web;
    expect(web(['exec', '--web', '--', 'make'])).toEqual({
      host: '127.0.0.1',
      port: 0,
      allowHosts: [],
    });
    expect(
      web([
        'exec',
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
    expect(() => parseCliArgs(['exec', '--port', '8080', '--', 'make'])).toThrow(
      new CliUsageError('`--port` needs `--web`'),
    );
    expect(() => parseCliArgs(['exec', '--web', '--json', '--', 'make'])).toThrow(
      new CliUsageError('`--web` cannot be combined with `--json`'),
    );
    expect(() => parseCliArgs(['exec', '--web', '--port', '70000', '--', 'make'])).toThrow(
      new CliUsageError(
        'Expected the `--port` flag to be a whole number from 0 to 65535, got `70000` (string)',
      ),
    );
  });

  it('parses --redis and --run-id (publish the run)', () => {
    expect(
      parseCliArgs(['exec', '--redis', 'redis://127.0.0.1:6379', '--run-id', 'build-7', '--', 'make']),
    ).toMatchObject({
      redis: 'redis://127.0.0.1:6379',
      runId: 'build-7',
      file: 'make',
    });
    expect(parseCliArgs(['exec', '--', 'ls'])).toMatchObject({ redis: undefined, runId: undefined });
  });

  it('parses every flag', () => {
    const parsed = parseCliArgs([
      'exec',
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
    [
      ['frobnicate'],
      'Unknown command `frobnicate`: expected one of `exec`, `demo`, `follow`, `submit`, `worker`, `web`, `mcp`, or `--help`',
    ],
    [['exec', '--run-id', 'x', '--', 'ls'], '`--run-id` needs `--redis <url>`'],
    [
      ['exec', '--redis', 'http://x', '--', 'ls'],
      'Expected the `--redis` flag to be a redis:// or rediss:// URL, got `http://x` (string)',
    ],
    [
      ['exec', '--redis', 'redis://h', '--run-id', 'a{b}', '--', 'ls'],
      'Expected the `--run-id` flag to be 1-200 letters',
    ],
    [['exec', '--max-bytes', '100', '--', 'ls'], '`--max-bytes` needs `--redis <url>`'],
    [['exec'], 'Missing the command to run'],
    [
      ['exec', '--timeout-ms', 'soon', '--', 'ls'],
      'Expected the `--timeout-ms` flag to be a whole number from 0 to 2147483647, got `soon` (string)',
    ],
    [
      ['exec', '--buffer-size', '0', '--', 'ls'],
      'Expected the `--buffer-size` flag to be a whole number from 1 to 1000000, got `0` (string)',
    ],
    [
      ['exec', '--wire', 'xml', '--', 'ls'],
      'Expected the `--wire` flag to be `bridge` or `serde`, got `xml` (string)',
    ],
    [
      ['exec', '--timeout-ms', '3000000000', '--', 'ls'],
      'Expected the `--timeout-ms` flag to be a whole number from 0 to 2147483647, got `3000000000` (string)',
    ],
    [
      ['exec', '--stall-timeout-ms', '2147483648', '--', 'ls'],
      'Expected the `--stall-timeout-ms` flag to be a whole number from 0 to 2147483647, got `2147483648` (string)',
    ],
    [['exec', '--frobnicate', '--', 'ls'], "Unknown option '--frobnicate'"],
    [['exec', '--timeout-ms', '--', 'ls'], "Option '--timeout-ms <value>' argument missing"],
  ])('rejects %j with a clear message', (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(CliUsageError);
    expect(() => parseCliArgs(argv)).toThrow(message);
  });
});
