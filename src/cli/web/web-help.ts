/** The text `sluice web --help` prints. */
export const webHelpText = `sluice web — serve the live page of every run in a Redis

Usage:
  sluice web --redis <url> [--host <address>] [--port <n>] [--allow-host <name[:port]>]…

Serves each run's page — its output live, its download, its Cancel — whichever machine runs it
(\`sluice exec --redis\`, \`sluice exec --web --redis\`, a \`sluice worker\`); a terminal run
(\`sluice exec --tty --redis\`) is drawn in a terminal view. The address, with its access token, is
printed on stderr. Runs until SIGINT or SIGTERM, then exits 0.

Options:
  --redis <url>             the Redis the runs are published to (redis:// or rediss://); needs the
                            optional peer ioredis
  --redis-cluster <h:p,…>   the startup nodes of the Redis Cluster they are published to, instead
  --host <address>          the address to listen on (default: 127.0.0.1)
  --port <n>                the port (default: a free one)
  --allow-host <name[:port]>
                            another name the page is reached by (a load balancer); repeatable
  -h, --help                show this help

Environment:
  SLUICE_WEB_TOKEN          the access token (at least 16 characters; default: a random one). Give
                            every server behind one load balancer the same.

Examples:
  sluice web --redis redis://127.0.0.1:6379 --port 8080
  SLUICE_WEB_TOKEN=$(cat token) sluice web --redis redis://10.0.0.5:6379 --host 0.0.0.0 --port 8080 --allow-host builds.example.com
`;
