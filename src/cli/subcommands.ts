import { cancelCommand } from './cancel/cancel-command.js';
import { CliUsageError } from './cli-usage-error.js';
import { demoCommand } from './demo.js';
import { execCommand } from './exec-command.js';
import { followCommand } from './follow/follow-command.js';
import { helpHelpText, overviewHelpText } from './help.js';
import { mcpCommand } from './mcp/mcp-command.js';
import { parseSubcommandArgs } from './parse-subcommand-args.js';
import { HELP_FLAG, type Subcommand } from './subcommand.js';
import { submitCommand } from './submit/submit-command.js';
import { webCommand } from './web/web-command.js';
import { workerCommand } from './worker/worker-command.js';

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
