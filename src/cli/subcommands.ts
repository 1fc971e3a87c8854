import { followCommand } from './follow/follow-command.js';
import { mcpCommand } from './mcp/mcp-command.js';
import { submitCommand } from './submit/submit-command.js';
import type { CliStreams } from './text-view.js';
import { webCommand } from './web/web-command.js';
import { workerCommand } from './worker/worker-command.js';

/**
 * A `sluice` subcommand other than `exec`, `demo` and `help` (which `parse-args.ts` knows):
 * it gets the arguments after its name and resolves with the process exit code. Each lives in its
 * own folder under `src/cli/` and adds one entry to {@link subcommands}.
 *
 * @example
 * ```ts
 * const hello: Subcommand = {
 *   summary: 'sluice hello               print a greeting',
 *   run: async (argv, io) => (io.stdout.write(`hello ${argv.join(' ')}\n`), 0),
 * };
 * ```
 */
export interface Subcommand {
  /** One line for `sluice --help`: the usage, then what it does. */
  readonly summary: string;
  /** Runs it; a thrown `CliUsageError` prints its message and exits 2. */
  run(argv: readonly string[], io: CliStreams, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<number>;
}

/**
 * The subcommands `run-cli.ts` dispatches to by name, besides `exec`, `demo` and `help`.
 *
 * @example
 * ```ts
 * const command = subcommands.get('follow');
 * if (command) process.exitCode = await command.run(['run-1'], process, process.env);
 * ```
 */
export const subcommands: ReadonlyMap<string, Subcommand> = new Map<string, Subcommand>([
  ['follow', followCommand],
  ['submit', submitCommand],
  ['worker', workerCommand],
  ['web', webCommand],
  ['mcp', mcpCommand],
]);
