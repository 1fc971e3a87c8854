import { docsUrl } from '../subcommand.js';

/** The text `sluice mcp --help` prints. */
export const mcpHelpText = `sluice mcp — serve sluice's Exec tool to an MCP host over stdio or Streamable HTTP

Usage:
  sluice mcp [--allow <program>]… [--cwd <dir>] [--timeout-s <n>]
  sluice mcp --http [--host <address>] [--port <n>] [--allow-host <name[:port]>]… [--allow-env <NAME>]…
             [--redis <url>] [--no-token] [--session-idle-s <n>] [--allow <program>]… [--cwd <dir>]
             [--timeout-s <n>]

Options:
  --allow <program>   a program the Exec tool may run: argv[0] must be exactly this name or path
                      (repeat for more). None by default, and then Exec is not offered at all.
  --cwd <dir>         working directory of the commands (default: the current directory)
  --timeout-s <n>     default and maximum wall-clock limit of a command, in seconds (default: 60,
                      at most 600); the whole process group is killed when it expires
  -h, --help          show this help

Over HTTP (--http; the endpoint is /mcp):
  --host <address>    address to bind (default 127.0.0.1)
  --port <n>          port (default 0: a free one, printed on stderr)
  --allow-host <name[:port]>
                      another name the Host header may carry (a proxy or balancer in front)
  --allow-env <NAME>  a variable a call's env may set (repeat for more; none by default)
  --redis <url>       keep sessions and the calls' event streams in Redis: instances sharing it
                      resume and cancel each other's calls (default: this process's memory)
  --redis-cluster <host:port,…>
                      the same in a Redis Cluster (its startup nodes)
  --no-token          require no token (loopback hosts only). Otherwise every request carries
                      Authorization: Bearer <token>: SLUICE_MCP_TOKEN, or a random one printed on stderr
  --session-idle-s <n>
                      end a session after this many seconds without a request or an open stream of
                      it (default 1800, at least 1): its calls and tasks are cancelled, their
                      process groups killed
  A call's cwd must stay under --cwd. A client that loses the connection resumes with
  Last-Event-ID and gets every notification and the result once (see
  ${docsUrl('mcp.md')}).

While a command runs, its output lines go to the client as progress notifications (at most one
per 20 ms, carrying every line since the last), if the client asked for progress. Cancelling
the call, or closing the connection, kills the command's whole process group. A client may also
run a call as an MCP task (tasks/get, tasks/result, tasks/cancel), over stdio or HTTP.

Needs the optional peer @modelcontextprotocol/sdk (npm install "@modelcontextprotocol/sdk@^1.32.2").

Examples:
  sluice mcp --allow npm --allow git --cwd ~/src/app
  sluice mcp --allow ./build.sh --timeout-s 600

An MCP host configuration (Claude Desktop, Cursor, VS Code, …):
  { "mcpServers": { "sluice": { "command": "npx", "args": ["sluice", "mcp", "--allow", "npm", "--allow", "git"] } } }
Over HTTP:
  { "mcpServers": { "sluice": { "type": "http", "url": "http://127.0.0.1:8080/mcp",
      "headers": { "Authorization": "Bearer <token>" } } } }
`;
