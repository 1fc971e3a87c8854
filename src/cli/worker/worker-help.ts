/** The text `sluice worker --help` prints. */
export const workerHelpText = `sluice worker — run the commands queued with \`sluice submit\`

Usage:
  sluice worker --redis <url> [--concurrency <n>] [--grace-ms <n>] [--lease-ms <n>] [--claim-idle-ms <n>]

Takes runs from the queue and runs them, publishing their output to the same Redis, until SIGTERM
or SIGINT; then it stops taking runs and gives the running ones --grace-ms to finish before they
are cancelled. A dead worker's runs are taken over by the others. Logs what it does on stderr.

Options:
  --redis <url>          the Redis of the run queue (redis:// or rediss://); needs the optional
                         peer ioredis
  --redis-cluster <h:p,…>
                         the startup nodes of a Redis Cluster, instead of --redis
  --redis-timeout-ms <n> a run's publishing fails after Redis failed this long (default: 5000)
  --max-bytes <n> / --max-events <n> / --retain-ms <n>
                         what Redis keeps of each run unless it was submitted with its own: its
                         newest 64 MiB / 1000000 events, for an hour after its end (default)
  --concurrency <n>      runs at a time (default: 1)
  --grace-ms <n>         how long running commands may finish on stop (default: 30000)
  --lease-ms <n>         the owner's lease: a run whose worker stops renewing it for this long ends
                         with OWNER_LOST (default: 10000)
  --claim-idle-ms <n>    a queued run a dead worker took is claimed by another after this long
                         (default: twice --lease-ms)
  -h, --help             show this help

Exits 0 after a graceful stop, 1 when the worker fails (the Redis unreachable).

Examples:
  sluice worker --redis redis://127.0.0.1:6379
  sluice worker --redis redis://127.0.0.1:6379 --concurrency 4 --grace-ms 60000
`;
