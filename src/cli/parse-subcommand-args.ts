import { type ParseArgsConfig, parseArgs } from 'node:util';
import { CliUsageError } from './cli-usage-error.js';

/**
 * `node:util` `parseArgs` for a subcommand's flags (strict), with `--` ending them: returns the
 * flag values, the positionals before `--`, and the words after it (a command to run). Errors are
 * `CliUsageError`s.
 *
 * @example
 * ```ts
 * const { values, positionals, rest } = parseSubcommandArgs(argv, { redis: { type: 'string' } });
 * ```
 */
export function parseSubcommandArgs(
  argv: readonly string[],
  options: NonNullable<ParseArgsConfig['options']>,
): { values: Record<string, string | boolean | undefined>; positionals: string[]; rest: string[] } {
  const split = argv.indexOf('--');
  const flags = split === -1 ? argv : argv.slice(0, split);
  const rest = split === -1 ? [] : argv.slice(split + 1);
  try {
    const parsed = parseArgs({ args: [...flags], strict: true, allowPositionals: true, options });
    return {
      values: parsed.values as Record<string, string | boolean | undefined>,
      positionals: parsed.positionals,
      rest,
    };
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
}
