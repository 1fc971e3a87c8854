import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/run-cli-in-process.js';

const COMMANDS = ['exec', 'follow', 'submit', 'worker', 'web', 'mcp'] as const;

describe('sluice <command> --help', () => {
  it.each(COMMANDS)('%s answers --help and -h with its own usage and examples, exit 0', async (name) => {
    const long = await runCliInProcess([name, '--help']);
    const short = await runCliInProcess([name, '-h']);
    const topic = await runCliInProcess(['help', name]);
    for (const result of [long, short, topic]) {
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(long.stdout);
    }
    expect(long.stdout).toMatch(new RegExp(`^sluice ${name} — `));
    expect(long.stdout).toMatch(new RegExp(`Usage:\\n  sluice ${name} `));
    const examples = long.stdout.slice(long.stdout.indexOf('Examples:\n'));
    expect(examples).toMatch(new RegExp(`^Examples:\\n(  sluice ${name} .*\\n)`));
  });

  it('each command has help of its own', async () => {
    const texts = await Promise.all(
      COMMANDS.map(async (name) => (await runCliInProcess([name, '--help'])).stdout),
    );
    expect(new Set(texts).size).toBe(COMMANDS.length);
    const overview = (await runCliInProcess(['--help'])).stdout;
    expect(texts).not.toContain(overview);
    expect(overview).toContain('Run `sluice <command> --help`');
  });

  it('answers help among other flags, without checking them', async () => {
    const result = await runCliInProcess(['follow', '--redis', 'not-a-url', '-h']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('sluice follow --redis <url> <run-id>');
  });

  it('a -h after `--` belongs to the command to run', async () => {
    const result = await runCliInProcess(['submit', '--', 'grep', '-h', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Missing `--redis <url>`');
    expect(result.stderr).toContain('Try `sluice submit --help`.');
  });

  it('`sluice help <unknown>` is a usage error', async () => {
    const result = await runCliInProcess(['help', 'frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('No help for `frobnicate`: expected one of `exec`, `follow`');
  });
});

describe('sluice exec with the command before `--`', () => {
  it('says to put the command after `--`, with the line to type', async () => {
    const result = await runCliInProcess(['exec', 'ls', '-la']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'sluice: Options after the command are its own: put the command after `--`, as in `sluice exec -- ls -la`\nTry `sluice exec --help`.\n',
    );
  });

  it("keeps sluice's own flags before `--`, and quotes what needs it", async () => {
    const result = await runCliInProcess(['exec', '--timeout-ms', '5000', 'grep', '-r', "it's", '.']);
    expect(result.stderr).toContain("as in `sluice exec --timeout-ms 5000 -- grep -r 'it'\\''s' .`");
  });

  it('an unknown flag with no command before it is an unknown flag', async () => {
    const result = await runCliInProcess(['exec', '--frobnicate', '--', 'ls']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Unknown option '--frobnicate'");
    expect(result.stderr).not.toContain('after the command');
  });
});
