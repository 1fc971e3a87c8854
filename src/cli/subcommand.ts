import type { CliStreams } from './text-view.js';

/**
 * A `sluice` subcommand other than `exec`, `demo` and `help` (which `parse-args.ts` knows):
 * it gets the arguments after its name and resolves with the process exit code. Each lives in its
 * own folder under `src/cli/` and adds one entry to `subcommands` (subcommands.ts).
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
