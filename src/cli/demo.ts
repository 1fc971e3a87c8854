import { CliUsageError } from './cli-usage-error.js';
import { runExec } from './exec-command.js';
import { parseExecArgs } from './parse-args.js';
import { parseSubcommandArgs } from './parse-subcommand-args.js';
import { HELP_FLAG, type Subcommand } from './subcommand.js';

/**
 * The child the built-in demo runs (`sluice` or `npm start` with no arguments): a pretend build
 * that writes at varying rates for about five seconds — a slow start, a burst, a quiet spell — so
 * the live view has something to show. Its warnings go to stderr, a pipe of their own: each is
 * written in a pause of the build, so that it is read, and shown, where it was written (two pipes
 * read side by side keep no order between lines written at the same moment).
 */
export const demoScript = `
const steps = [
  ['resolving dependencies', 6, 120, {}],
  ['compiling', 40, 25, { 18: 'src/legacy.js uses a deprecated API', 33: 'src/util.js has an unused variable' }],
  ['bundling (burst)', 400, 0, {}],
  ['running tests', 30, 40, { 12: 'test "slow io" took 1.2 s', 27: '2 tests skipped' }],
  ['waiting on a slow step', 1, 900, {}],
  ['writing report', 10, 30, { 6: '3 files without coverage' }],
];
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const write = (stream, text) =>
  new Promise((resolve) => (stream.write(text) ? resolve() : stream.once('drain', resolve)));
(async () => {
  let n = 0;
  for (const [name, count, pause, warnings] of steps) {
    await write(process.stdout, '== ' + name + '\\n');
    for (let i = 1; i <= count; i++) {
      n++;
      await write(process.stdout, name + ' ' + i + '/' + count + '\\n');
      if (pause) await wait(pause);
      if (warnings[i] === undefined) continue;
      await wait(100);
      await write(process.stderr, 'warning: ' + warnings[i] + '\\n');
      await wait(100);
    }
  }
  await write(process.stdout, 'done: ' + n + ' steps\\n');
})();
`;

const demoHelpText = `sluice demo — watch sluice show a pretend build, live

Usage:
  sluice demo
  sluice

Runs a small Node script that writes for about five seconds — a slow start, a burst of 400 lines,
a few warnings on stderr, a quiet spell — and shows it as \`sluice exec\` shows any command: its
lines as they come, a status line on a terminal, and the summary at the end.

Options:
  -h, --help          show this help

Examples:
  sluice demo
  sluice demo > build.log
`;

/** `sluice demo` (and `sluice` alone): runs {@link demoScript} as `sluice exec` runs a command. */
export const demoCommand: Subcommand = {
  summary: 'sluice demo               run a built-in demo child (also: sluice with no arguments)',
  help: demoHelpText,
  flags: HELP_FLAG,
  run: async (argv, io, env, signal) => {
    const { positionals, rest } = parseSubcommandArgs(argv, HELP_FLAG);
    const extra = [...positionals, ...rest][0];
    if (extra !== undefined) throw new CliUsageError(`Unexpected argument \`${extra}\`: \`sluice demo\``);
    const run = parseExecArgs(['--', process.execPath, '-e', demoScript]);
    return runExec(run, io, env, signal, true);
  },
};
