import { CliUsageError, flagError, readIntegerFlag } from '../cli-usage-error.js';
import { parseSubcommandArgs } from '../parse-subcommand-args.js';
import { REDIS_STORE_FLAGS, readRedisStoreFlags } from '../redis-store-flags.js';
import { HELP_FLAG, type Subcommand } from '../subcommand.js';

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

const SUBMIT_FLAGS = {
  ...HELP_FLAG,
  ...REDIS_STORE_FLAGS,
  'run-id': { type: 'string' },
  cwd: { type: 'string' },
  'timeout-ms': { type: 'string' },
} as const;

const USAGE = 'sluice submit --redis <url> [--run-id <id>] [--max-bytes N] -- <command> [args…]';

/** `sluice submit`: its help text says what it does. */
export const submitCommand: Subcommand = {
  summary: `${USAGE}\n                            queue a command for the workers; prints its run id`,
  help: submitHelpText,
  flags: SUBMIT_FLAGS,
  run: async (argv, io) => {
    const { values, positionals, rest } = parseSubcommandArgs(argv, SUBMIT_FLAGS, 'submit');
    const { maxEvents, maxBytes, retainMs, ...connection } = readRedisStoreFlags(values, USAGE);
    const command = [...positionals, ...rest];
    if (command.length === 0) throw new CliUsageError(`Missing the command to run: \`${USAGE}\``);
    const timeoutMs = readIntegerFlag('timeout-ms', values['timeout-ms'] as string | undefined, 0, 0);
    const { RedisRunStore, isRunId, submitJob } = await import('../../redis/index.js');
    const runId = values['run-id'] as string | undefined;
    if (runId !== undefined && !isRunId(runId)) {
      throw flagError('run-id', '1-200 letters, digits, `.`, `_`, `:` or `-`', runId);
    }
    const store = new RedisRunStore({ ...connection, failFast: true });
    try {
      const id = await submitJob(store, {
        file: command[0] as string,
        args: command.slice(1),
        ...(runId === undefined ? {} : { runId }),
        ...(values.cwd === undefined ? {} : { cwd: values.cwd as string }),
        ...(timeoutMs === 0 ? {} : { timeoutMs }),
        ...(maxEvents === undefined ? {} : { maxEvents }),
        ...(maxBytes === undefined ? {} : { maxBytes }),
        ...(retainMs === undefined ? {} : { retainMs }),
      });
      io.stdout.write(`${id}\n`);
      return 0;
    } catch (error) {
      io.stderr.write(`sluice: ${(error as Error).message}\n`);
      return 1;
    } finally {
      await store.close();
    }
  },
};
