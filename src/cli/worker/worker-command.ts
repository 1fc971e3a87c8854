import { once } from 'node:events';
import { CliUsageError } from '../cli-usage-error.js';
import { parseSubcommandArgs } from '../parse-subcommand-args.js';
import { REDIS_STORE_FLAGS, redisStoreFlags } from '../redis-store-flags.js';
import { HELP_FLAG, type Subcommand } from '../subcommand.js';
import { wholeNumberFlag } from '../whole-number-flag.js';
import { workerHelpText } from './worker-help.js';

const WORKER_FLAGS = {
  ...HELP_FLAG,
  ...REDIS_STORE_FLAGS,
  concurrency: { type: 'string' },
  'grace-ms': { type: 'string' },
  'lease-ms': { type: 'string' },
  'claim-idle-ms': { type: 'string' },
} as const;

const USAGE = 'sluice worker --redis <url> [--concurrency N]';

/**
 * `sluice worker --redis <url> | --redis-cluster <host:port,…> [--concurrency N] [--grace-ms N]
 * [--lease-ms N] [--claim-idle-ms N] [--max-events N] [--max-bytes N] [--retain-ms N]`: runs submitted commands until SIGTERM/SIGINT, then stops gracefully
 * (running commands get `--grace-ms` to finish, then are cancelled). Logs what it does on stderr.
 * A dead worker's runs are reclaimed by the others (see `startRunWorker`).
 */
export const workerCommand: Subcommand = {
  summary: `${USAGE}\n                            run queued commands (SIGTERM: finish, then stop)`,
  help: workerHelpText,
  flags: WORKER_FLAGS,
  run: async (argv, io, _env, signal) => {
    const { values, positionals, rest } = parseSubcommandArgs(argv, WORKER_FLAGS);
    const extra = [...positionals, ...rest][0];
    if (extra !== undefined) throw new CliUsageError(`Unexpected argument \`${extra}\`: \`${USAGE}\``);
    const storeOptions = redisStoreFlags(values, USAGE);
    const concurrency = wholeNumberFlag(
      'concurrency',
      values.concurrency as string | undefined,
      1,
      1,
      10_000,
    );
    const graceMs = wholeNumberFlag('grace-ms', values['grace-ms'] as string | undefined, 30_000, 0);
    const leaseMs = wholeNumberFlag('lease-ms', values['lease-ms'] as string | undefined, 10_000, 100);
    const claimIdleMs = wholeNumberFlag(
      'claim-idle-ms',
      values['claim-idle-ms'] as string | undefined,
      2 * leaseMs,
      1,
    );
    const { RedisRunStore, startRunWorker } = await import('../../redis/index.js');
    const store = new RedisRunStore({ ...storeOptions, leaseMs });
    const log = (message: string) => io.stderr.write(`sluice worker ${store.owner}: ${message}\n`);
    const worker = startRunWorker(store, { concurrency, claimIdleMs, log });
    log(`waiting for runs (concurrency ${concurrency})`);
    try {
      await Promise.race([
        worker.stopped,
        signal === undefined ? new Promise<never>(() => {}) : once(signal, 'abort'),
      ]);
      log('stopping');
      await worker.stop({ graceMs });
      log('stopped');
      return 0;
    } catch (error) {
      io.stderr.write(`sluice worker: ${(error as Error).message}\n`);
      await worker.stop({ graceMs: 0 }).catch(() => {});
      return 1;
    } finally {
      await store.close();
    }
  },
};
