/**
 * The text `sluice mcp --help` prints.
 *
 * @example
 * ```ts
 * process.stdout.write(mcpHelpText);
 * ```
 */
export const mcpHelpText = `sluice mcp — serve sluice's Exec tool to an MCP host over stdio

Usage:
  sluice mcp [--allow <program>]… [--cwd <dir>] [--timeout-s <n>]

Options:
  --allow <program>   a program the Exec tool may run: argv[0] must be exactly this name or path
                      (repeat for more). None by default, and then Exec is not offered at all.
  --cwd <dir>         working directory of the commands (default: the current directory)
  --timeout-s <n>     default and maximum wall-clock limit of a command, in seconds (default: 60,
                      at most 600); the whole process group is killed when it expires
  -h, --help          show this help

While a command runs, its output lines go to the client as progress notifications (at most one
per 20 ms, carrying every line since the last), if the client asked for progress. Cancelling
the call, or closing the connection, kills the command's whole process group.

Needs the optional peer @modelcontextprotocol/sdk (npm install "@modelcontextprotocol/sdk@^1.32.2").

Examples:
  sluice mcp --allow npm --allow git --cwd ~/src/app
  sluice mcp --allow ./build.sh --timeout-s 600

An MCP host configuration (Claude Desktop, Cursor, VS Code, …):
  { "mcpServers": { "sluice": { "command": "npx", "args": ["sluice", "mcp", "--allow", "npm", "--allow", "git"] } } }
`;
