/** The text `sluice submit --help` prints. */
export const submitHelpText = `sluice submit — queue a command for the workers of a Redis, and print its run id

Usage:
  sluice submit --redis <url> [--run-id <id>] [--cwd <dir>] [--timeout-ms <n>] -- <command> [args…]

A \`sluice worker\` on any machine that reaches the Redis runs it; follow it with \`sluice follow\`
or its page with \`sluice web\`.

Options:
  --redis <url>             the Redis of the run queue (redis:// or rediss://); needs the optional
                            peer ioredis
  --redis-cluster <h:p,…>   the startup nodes of a Redis Cluster, instead of --redis
  --redis-timeout-ms <n>    give up when Redis has not answered for this long (default: 5000)
  --run-id <id>             the run id (default: a random one); 1-200 letters, digits, . _ : or -
  --cwd <dir>               the working directory on the worker (default: the worker's)
  --timeout-ms <n>          kill the command's process group after n ms (default: 0, no timeout)
  --max-bytes <n> / --max-events <n> / --retain-ms <n>
                            what Redis keeps of this run (default: the worker's store's: its newest
                            64 MiB / 1000000 events, for an hour after its end)
  -h, --help                show this help

Exits 0 once the run is queued, 1 when it could not be (the Redis unreachable, the id taken).

Examples:
  sluice submit --redis redis://127.0.0.1:6379 -- make test
  id=$(sluice submit --redis redis://127.0.0.1:6379 --run-id build-7 -- npm test)
  sluice follow --redis redis://127.0.0.1:6379 "$id"
`;
