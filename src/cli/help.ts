import { subcommands } from './subcommands.js';

/** The text `sluice --help` prints. */
export const helpText = `sluice — stream a command's output live, line by line

Usage:
  sluice exec [options] -- <command> [args…]
  sluice demo               run a built-in demo child (also: sluice with no arguments)
${[...subcommands.values()].map((command) => `  ${command.summary}\n`).join('')}  sluice help [<command>] | --help | --version

Run \`sluice <command> --help\` (or \`sluice help <command>\`) for a command's options and examples.
Redis (--redis, follow, submit, worker, web) needs the optional peer ioredis, and mcp needs
@modelcontextprotocol/sdk: without it, the command says what to install and exits 1.

The exit code of exec mirrors the command's: its own code, 128 + n after signal n, 124 on timeout,
127 when it is not found, 126 when it cannot be started, and 2 for a bad sluice command line.

Examples:
  sluice exec -- npm test
  sluice exec --redis redis://127.0.0.1:6379 --run-id build-7 -- make test
  sluice follow --redis redis://127.0.0.1:6379 build-7 --after 41
  sluice web --redis redis://127.0.0.1:6379 --port 8080
  sluice mcp --allow npm --allow git
`;
