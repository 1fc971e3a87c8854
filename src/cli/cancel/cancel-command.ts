import { CliUsageError, readIntegerFlag } from '../cli-usage-error.js';
import { parseSubcommandArgs } from '../parse-subcommand-args.js';
import { REDIS_CONNECTION_FLAGS, readRedisConnection } from '../redis-store-flags.js';
import { docsUrl, HELP_FLAG, type Subcommand } from '../subcommand.js';

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

const CANCEL_FLAGS = {
  ...HELP_FLAG,
  ...REDIS_CONNECTION_FLAGS,
  'redis-timeout-ms': { type: 'string' },
} as const;

const USAGE = 'sluice cancel --redis <url> <run-id>';

/** `sluice cancel`: its help text says what it does. */
export const cancelCommand: Subcommand = {
  summary: `${USAGE}\n                            cancel a run from any machine (its owner kills it)`,
  help: cancelHelpText,
  flags: CANCEL_FLAGS,
  run: async (argv, io) => {
    const { values, positionals, rest } = parseSubcommandArgs(argv, CANCEL_FLAGS);
    const connection = readRedisConnection(values, USAGE);
    const [runId, ...extra] = [...positionals, ...rest];
    if (runId === undefined || extra.length > 0) throw new CliUsageError(`Expected one run id: \`${USAGE}\``);
    const timeout = values['redis-timeout-ms'] as string | undefined;
    const failAfterMs = readIntegerFlag('redis-timeout-ms', timeout, 5000, 1);
    const [{ RedisRunStore, isRunId }, { redisFailure }] = await Promise.all([
      import('../../redis/index.js'),
      import('../../redis/connect-redis.js'),
    ]);
    if (!isRunId(runId)) throw new CliUsageError(`Not a run id: \`${runId}\``);
    const store = new RedisRunStore({ ...connection, failAfterMs, failFast: true });
    try {
      if (await store.cancel(runId, 'cancelled', { by: 'cli' })) {
        io.stderr.write(`sluice: run ${runId}: cancel sent to its owner\n`);
        return 0;
      }
      const info = await store.info(runId);
      io.stderr.write(
        info === undefined
          ? `sluice: run ${runId}: no such run in that Redis (or its retention has passed)\n`
          : `sluice: run ${runId}: not cancelled, it has already ended\n`,
      );
      return 1;
    } catch (error) {
      io.stderr.write(`sluice: run ${runId}: cancel failed: ${redisFailure(store.client, error)}\n`);
      return 1;
    } finally {
      await store.close();
    }
  },
};
