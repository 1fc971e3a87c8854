import { cancelCommand } from './cancel/cancel-command.js';
import { CliUsageError } from './cli-usage-error.js';
import { demoCommand } from './demo.js';
import { execCommand } from './exec-command.js';
import { followCommand } from './follow/follow-command.js';
import { mcpCommand } from './mcp/mcp-command.js';
import { parseSubcommandArgs } from './parse-subcommand-args.js';
import { HELP_FLAG, type Subcommand } from './subcommand.js';
import { submitCommand } from './submit/submit-command.js';
import { webCommand } from './web/web-command.js';
import { workerCommand } from './worker/worker-command.js';

/** The text `sluice help --help` prints. */
export const helpHelpText = `sluice help — show the help of sluice or of one of its commands

Usage:
  sluice help [<command>]

Without a command, the overview (as \`sluice --help\`); with one, its help (as \`sluice <command>
--help\`). \`sluice --version\` (or -V) prints the version.

Options:
  -h, --help          show this help

Examples:
  sluice help
  sluice help exec
`;

/** `sluice help [<command>]`: the overview, or the help of one command. */
const helpCommand: Subcommand = {
  summary: 'sluice help [<command>] | --help | --version',
  help: helpHelpText,
  flags: HELP_FLAG,
  run: async (argv, io) => {
    const { positionals, rest } = parseSubcommandArgs(argv, HELP_FLAG);
    const words = [...positionals, ...rest];
    if (words.length === 0) {
      io.stdout.write(overviewHelp());
      return 0;
    }
    const topic = subcommands.get(words[0] ?? '');
    if (topic === undefined || words.length > 1) {
      const known = [...subcommands.keys()].map((name) => `\`${name}\``).join(', ');
      throw new CliUsageError(`No help for \`${words.join(' ')}\`: expected one of ${known}`);
    }
    io.stdout.write(topic.help);
    return 0;
  },
};

/**
 * Every `sluice` command by name: the one table the CLI dispatches on, answers `--help` from, and
 * lists in `sluice --help` (in this order).
 */
export const subcommands: ReadonlyMap<string, Subcommand> = new Map<string, Subcommand>([
  ['exec', execCommand],
  ['demo', demoCommand],
  ['follow', followCommand],
  ['submit', submitCommand],
  ['worker', workerCommand],
  ['web', webCommand],
  ['mcp', mcpCommand],
  ['cancel', cancelCommand],
  ['help', helpCommand],
]);

/** What `sluice --help` prints: the summary of every command in the table. */
export function overviewHelp(): string {
  return overviewHelpText([...subcommands.values()].map((command) => command.summary));
}

/**
 * The text `sluice --help` prints, from the one-line summary of every command (in the order of the
 * table in subcommands.ts).
 */
export function overviewHelpText(summaries: readonly string[]): string {
  return `sluice — stream a command's output live, line by line

Usage:
${summaries.map((summary) => `  ${summary}\n`).join('')}
Run \`sluice <command> --help\` (or \`sluice help <command>\`) for a command's options and examples.
Redis (--redis, follow, submit, worker, web, cancel) needs the optional peer ioredis, and mcp needs
@modelcontextprotocol/sdk: without it, the command says what to install and exits 1.

The exit code of exec mirrors the command's: its own code, 128 + n after signal n, 124 on timeout,
127 when it is not found, 126 when it cannot be started, and 2 for a bad sluice command line.

Examples:
  sluice exec -- npm test
  sluice exec --redis redis://127.0.0.1:6379 --run-id build-7 -- make test
  sluice follow --redis redis://127.0.0.1:6379 build-7 --after 41
  sluice cancel --redis redis://127.0.0.1:6379 build-7
  sluice web --redis redis://127.0.0.1:6379 --port 8080
  sluice mcp --allow npm --allow git

Docs: https://github.com/sluice-js/sluice#readme
`;
}
