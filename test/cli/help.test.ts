import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { subcommands } from '../../src/cli/subcommands.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

/** Every command of the table the CLI dispatches on: `demo` and `help` too. */
const COMMANDS = [...subcommands.keys()];

/** The part of a help text that lists the options: from `Options:` to `Examples:`. */
const optionsOf = (help: string) => help.slice(help.indexOf('\nOptions:\n'), help.indexOf('\nExamples:\n'));

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
    expect(long.stdout).toMatch(new RegExp(`Usage:\\n  sluice ${name}\\b`));
    const examples = long.stdout.slice(long.stdout.indexOf('Examples:\n'));
    expect(examples).toMatch(new RegExp(`^Examples:\\n(  sluice ${name}\\b.*\\n)`));
  });

  it.each(COMMANDS)('%s: its help lists exactly the flags its parser reads', (name) => {
    const command = subcommands.get(name)!;
    const options = optionsOf(command.help);
    expect(options).not.toBe('');
    const listed = [...new Set(options.match(/--[a-z][a-z-]*/g))].sort();
    expect(listed).toEqual(
      Object.keys(command.flags)
        .map((flag) => `--${flag}`)
        .sort(),
    );
    for (const [flag, { short }] of Object.entries(command.flags)) {
      if (short !== undefined) expect(options).toContain(`-${short}, --${flag}`);
    }
  });

  it.each(COMMANDS)('%s: its help points to pages a user has (the README, or docs on GitHub)', (name) => {
    const help = subcommands.get(name)!.help;
    // The npm package ships no docs/ folder: a bare `docs/x.md` is a path the user does not have.
    expect(help).not.toMatch(/(^|[^/])docs\/[\w-]+\.md/m);
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const base = 'https://github.com/sluice-js/sluice/blob/main/';
    for (const [, page] of help.matchAll(
      /https:\/\/github\.com\/sluice-js\/sluice\/blob\/main\/([\w/.-]+)/g,
    )) {
      expect(existsSync(`${root}${page}`), `${base}${page}`).toBe(true);
    }
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

  it('an unknown command is a usage error that lists the commands', async () => {
    const result = await runCliInProcess(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown command `frobnicate`: expected one of `exec`, `demo`, `follow`');
    expect(result.stderr).toContain('Try `sluice --help`.');
  });

  it('`sluice help <unknown>` is a usage error', async () => {
    const result = await runCliInProcess(['help', 'frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('No help for `frobnicate`: expected one of `exec`, `demo`, `follow`');
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
    expect(result.stderr).toBe('sluice: Unknown `--frobnicate` flag\nTry `sluice exec --help`.\n');
    expect(result.stderr).not.toContain('after the command');
  });
});
