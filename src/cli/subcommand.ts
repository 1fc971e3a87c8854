import type { CliStreams } from './text-view.js';

/**
 * A `sluice` subcommand other than `exec`, `demo` and `help` (which `parse-args.ts` knows):
 * it gets the arguments after its name and resolves with the process exit code. Each lives in its
 * own folder under `src/cli/` and adds one entry to `subcommands` (subcommands.ts).
 */
export interface Subcommand {
  /** One line for `sluice --help`: the usage, then what it does. */
  readonly summary: string;
  /**
   * What `sluice <name> --help` (or `-h`, or `sluice help <name>`) prints, with exit code 0: the
   * usage, every option, and examples. The CLI answers it before `run`, so a command whose
   * optional peer is not installed still explains itself.
   */
  readonly help: string;
  /** Runs it; a thrown `CliUsageError` prints its message and exits 2. */
  run(argv: readonly string[], io: CliStreams, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<number>;
}
