import { CliUsageError } from '../cli-usage-error.js';
import { parseSubcommandArgs } from '../parse-subcommand-args.js';
import { redisUrlFlag } from '../redis-url-flag.js';
import { HELP_FLAG, type Subcommand } from '../subcommand.js';
import { wholeNumberFlag } from '../whole-number-flag.js';
import { cancelHelpText } from './cancel-help.js';

const CANCEL_FLAGS = {
  ...HELP_FLAG,
  redis: { type: 'string' },
  'redis-cluster': { type: 'string' },
  'redis-timeout-ms': { type: 'string' },
} as const;

const USAGE = 'sluice cancel --redis <url> <run-id>';

/**
 * `sluice cancel --redis <url> | --redis-cluster <host:port,…> <run-id>`: cancels a run from any
 * machine, through the store's one cancel path (`RunStore.cancel`, as the page's Cancel button):
 * the owner kills the run's process group and ends it with `{ reason: 'cancelled', by: 'cli' }`.
 * Exit code: 0 when the request reached a running run, 1 when the run had ended, is unknown, or
 * Redis failed (said on stderr), 2 for a bad command line.
 */
export const cancelCommand: Subcommand = {
  summary: `${USAGE}\n                            cancel a run from any machine (its owner kills it)`,
  help: cancelHelpText,
  flags: CANCEL_FLAGS,
  run: async (argv, io) => {
    const { values, positionals, rest } = parseSubcommandArgs(argv, CANCEL_FLAGS);
    const connection = redisUrlFlag(
      values.redis as string | undefined,
      USAGE,
      values['redis-cluster'] as string | undefined,
    );
    const [runId, ...extra] = [...positionals, ...rest];
    if (runId === undefined || extra.length > 0) throw new CliUsageError(`Expected one run id: \`${USAGE}\``);
    const timeout = values['redis-timeout-ms'] as string | undefined;
    const failAfterMs = wholeNumberFlag('redis-timeout-ms', timeout, 5000, 1);
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
