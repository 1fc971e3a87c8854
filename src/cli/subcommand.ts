import type { CliFlags } from './parse-subcommand-args.js';
import type { CliStreams } from './text-view.js';

/**
 * A `sluice` command (`exec`, `demo`, `follow`, …, `help`): it gets the arguments after its name
 * and resolves with the process exit code. Each adds one entry to the table in subcommands.ts,
 * which the CLI dispatches on, answers `--help` from, and lists in `sluice --help`.
 */
export interface Subcommand {
  /** One line for `sluice --help`: the usage, then what it does. */
  readonly summary: string;
  /**
   * What `sluice <name> --help` (or `-h`, or `sluice help <name>`) prints, with exit code 0: the
   * usage, every option, and examples. The CLI answers it before `run`, so a command whose
   * optional peer is not installed still explains itself. Its Options list exactly {@link flags}.
   */
  readonly help: string;
  /** The flags `run` reads (with {@link HELP_FLAG}), for `parseSubcommandArgs`. */
  readonly flags: CliFlags;
  /** Runs it; a thrown `CliUsageError` prints its message and exits 2. */
  run(argv: readonly string[], io: CliStreams, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<number>;
}

/** `-h`, `--help`: every command has it (the CLI answers it before the command runs). */
export const HELP_FLAG = { help: { type: 'boolean', short: 'h' } } as const;

/** Resolves once `signal` aborts (never without one): a serving subcommand serves until then. */
export function untilAborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) resolve();
    else signal?.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * The address of a page of sluice's docs, for help texts: the npm package ships the README only,
 * so a help text links the page on GitHub (`docsUrl('scaling.md')`).
 */
export function docsUrl(page: string): string {
  return `https://github.com/sluice-js/sluice/blob/main/docs/${page}`;
}
