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
