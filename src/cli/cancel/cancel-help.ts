import { docsUrl } from '../subcommand.js';

/** The text `sluice cancel --help` prints. */
export const cancelHelpText = `sluice cancel — cancel a run published to Redis, from any machine that reaches it

Usage:
  sluice cancel --redis <url> <run-id>

Asks the run's owner — the \`sluice exec --redis\`, \`sluice worker\` or page server that runs it,
wherever it runs — to stop it, as the Cancel button of its page does: its whole process group is
killed, and the run ends as cancelled (followers see it end; \`sluice exec\` exits 130).

Options:
  --redis <url>             the Redis the run is published to (redis:// or rediss://); needs the
                            optional peer ioredis
  --redis-cluster <h:p,…>   the startup nodes of the Redis Cluster it is published to, instead
  --redis-timeout-ms <n>    give up when Redis has not answered for this long (default: 5000)
  -h, --help                show this help

Exits 0 once the cancel is recorded for a run still running, 1 when the run has already ended, is
not in that Redis (or its retention has passed), or Redis cannot be reached, and 2 for a bad
command line. How a cancel travels to the run's owner: ${docsUrl('scaling.md')}

Examples:
  sluice cancel --redis redis://127.0.0.1:6379 build-7
  sluice cancel --redis-cluster 10.0.0.5:7000,10.0.0.6:7000 build-7
`;
