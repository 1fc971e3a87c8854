import { CliUsageError } from '../cli-usage-error.js';
import { flagError } from '../flag-error.js';
import { parseSubcommandArgs } from '../parse-subcommand-args.js';
import { REDIS_STORE_FLAGS, redisStoreFlags } from '../redis-store-flags.js';
import { HELP_FLAG, type Subcommand } from '../subcommand.js';
import { wholeNumberFlag } from '../whole-number-flag.js';
import { submitHelpText } from './submit-help.js';

const SUBMIT_FLAGS = {
  ...HELP_FLAG,
  ...REDIS_STORE_FLAGS,
  'run-id': { type: 'string' },
  cwd: { type: 'string' },
  'timeout-ms': { type: 'string' },
} as const;

const USAGE = 'sluice submit --redis <url> [--run-id <id>] [--max-bytes N] -- <command> [args…]';

/**
 * `sluice submit --redis <url> | --redis-cluster <host:port,…> [--run-id <id>] [--cwd <dir>]
 * [--timeout-ms <n>] [--max-events N] [--max-bytes N] [--retain-ms N] -- <command> [args…]`: puts
 * the command on the run queue for `sluice worker`s and prints its run id (follow it with `sluice
 * follow`). The retention flags are the run's own (the worker's store's by default).
 */
export const submitCommand: Subcommand = {
  summary: `${USAGE}\n                            queue a command for the workers; prints its run id`,
  help: submitHelpText,
  flags: SUBMIT_FLAGS,
  run: async (argv, io) => {
    const { values, positionals, rest } = parseSubcommandArgs(argv, SUBMIT_FLAGS, 'submit');
    const { maxEvents, maxBytes, retainMs, ...connection } = redisStoreFlags(values, USAGE);
    const command = [...positionals, ...rest];
    if (command.length === 0) throw new CliUsageError(`Missing the command to run: \`${USAGE}\``);
    const timeoutMs = wholeNumberFlag('timeout-ms', values['timeout-ms'] as string | undefined, 0, 0);
    const { RedisRunStore, isRunId, submitRun } = await import('../../redis/index.js');
    const runId = values['run-id'] as string | undefined;
    if (runId !== undefined && !isRunId(runId)) {
      throw flagError('run-id', '1-200 letters, digits, `.`, `_`, `:` or `-`', runId);
    }
    const store = new RedisRunStore({ ...connection, failFast: true });
    try {
      const id = await submitRun(store, {
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
