import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/run-cli-in-process.js';

describe('sluice follow / submit / worker / web: command lines', () => {
  it.each([
    [['follow', 'build-7'], 'Missing `--redis <url>`'],
    [['follow', '--redis', 'redis://h'], 'Expected one run id'],
    [['follow', '--redis', 'redis://h', 'a', 'b'], 'Expected one run id'],
    [
      ['follow', '--redis', 'redis://h', 'x', '--after', 'soon'],
      'Expected the `--after` flag to be a whole number',
    ],
    [
      ['follow', '--redis', 'ftp://h', 'x'],
      'Expected the `--redis` flag to be a redis:// or rediss:// URL, got `ftp://h` (string)',
    ],
    [['submit', '--redis', 'redis://h'], 'Missing the command to run'],
    [
      ['submit', '--redis', 'redis://h', '--run-id', 'a b', '--', 'ls'],
      'Expected the `--run-id` flag to be 1-200 letters',
    ],
    [
      ['worker', '--redis', 'redis://h', '--concurrency', '0'],
      'Expected the `--concurrency` flag to be a whole number from 1',
    ],
    [['worker', '--frobnicate'], 'Unknown `--frobnicate` flag'],
    [['worker', '--concurency', '2'], 'Unknown `--concurency` flag (did you mean `--concurrency`?)'],
    [
      ['follow', '--redis', 'redis://h', 'x', '--after'],
      'Expected the `--after` flag to be followed by its value',
    ],
    [['web'], 'Missing `--redis <url>`'],
    [
      ['web', '--redis', 'redis://h', '--port', '70000'],
      'Expected the `--port` flag to be a whole number from 0 to 65535',
    ],
    [['web', '--redis', 'redis://h', 'run-7'], 'Unexpected argument `run-7`'],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const result = await runCliInProcess(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('a SLUICE_WEB_TOKEN shorter than 16 characters is a usage error (exit 2)', async () => {
    const env = { SLUICE_WEB_TOKEN: 'short' };
    for (const argv of [
      ['web', '--redis', 'redis://h'],
      ['exec', '--web', '--', 'true'],
    ]) {
      const result = await runCliInProcess(argv, env);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('`SLUICE_WEB_TOKEN` must be at least 16 characters long');
    }
  });

  it('--help lists them', async () => {
    const result = await runCliInProcess(['--help']);
    expect(result.stdout).toContain('sluice follow --redis <url> <run-id>');
    expect(result.stdout).toContain('sluice submit --redis <url>');
    expect(result.stdout).toContain('sluice worker --redis <url>');
    expect(result.stdout).toContain('sluice web --redis <url>');
    expect(result.stdout).toContain('--run-id <id>');
  });
});
