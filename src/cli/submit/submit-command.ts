import { CliUsageError } from '../cli-usage-error.js';
import { flagError } from '../flag-error.js';
import { parseSubcommandArgs } from '../parse-subcommand-args.js';
import { redisUrlFlag } from '../redis-url-flag.js';
import type { Subcommand } from '../subcommand.js';
import { wholeNumberFlag } from '../whole-number-flag.js';
import { submitHelpText } from './submit-help.js';

const USAGE = 'sluice submit --redis <url> [--run-id <id>] -- <command> [args…]';

/**
 * `sluice submit --redis <url> [--run-id <id>] [--cwd <dir>] [--timeout-ms <n>] -- <command>
 * [args…]`: puts the command on the run queue for `sluice worker`s and prints its run id (follow
 * it with `sluice follow`).
 *
 * @example
 * ```ts
 * await submitCommand.run(['--redis', url, '--', 'make', 'test'], process, process.env); // prints the run id
 * ```
 */
export const submitCommand: Subcommand = {
  summary: `${USAGE}\n                            queue a command for the workers; prints its run id`,
  help: submitHelpText,
  run: async (argv, io) => {
    const { values, positionals, rest } = parseSubcommandArgs(argv, {
      redis: { type: 'string' },
      'run-id': { type: 'string' },
      cwd: { type: 'string' },
      'timeout-ms': { type: 'string' },
    });
    const url = redisUrlFlag(values.redis as string | undefined, USAGE);
    const command = [...positionals, ...rest];
    if (command.length === 0) throw new CliUsageError(`Missing the command to run: \`${USAGE}\``);
    const timeoutMs = wholeNumberFlag('timeout-ms', values['timeout-ms'] as string | undefined, 0, 0);
    const { RedisRunStore, isRunId, submitRun } = await import('../../redis/index.js');
    const runId = values['run-id'] as string | undefined;
    if (runId !== undefined && !isRunId(runId)) {
      throw flagError('run-id', '1-200 letters, digits, `.`, `_`, `:` or `-`', runId);
    }
    const store = new RedisRunStore({ url });
    try {
      const id = await submitRun(store, {
        file: command[0] as string,
        args: command.slice(1),
        ...(runId === undefined ? {} : { runId }),
        ...(values.cwd === undefined ? {} : { cwd: values.cwd as string }),
        ...(timeoutMs === 0 ? {} : { timeoutMs }),
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
