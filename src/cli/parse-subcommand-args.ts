import { type ParseArgsConfig, parseArgs } from 'node:util';
import { quoteCommand } from '../sources/exec/quote-command.js';
import { CliUsageError, flagError } from './cli-usage-error.js';

/** The flags of one command, as `node:util` `parseArgs` takes them. */
export type CliFlags = NonNullable<ParseArgsConfig['options']>;

/** The flag values read: a string, `true` for a switch, an array for a repeatable flag. */
export type GivenFlags = Record<string, string | boolean | string[] | undefined>;

/**
 * Reads a command's flags, with `--` ending them: the flag values, the positionals before `--`,
 * and the words after it. Every refusal is a `CliUsageError` in sluice's template: an unknown flag
 * named with the nearest known one, a flag without its value named, a value that starts with `-`
 * left to the flag's own check. With `runs` (`exec`, `submit`), an unknown flag after the command's
 * first word is the command's, and the message says to put the command after `--`.
 */
export function parseSubcommandArgs(
  argv: readonly string[],
  flags: CliFlags,
  runs?: string,
): { values: GivenFlags; positionals: string[]; rest: string[] } {
  const split = argv.indexOf('--');
  const before = split === -1 ? [...argv] : argv.slice(0, split);
  const rest = split === -1 ? [] : argv.slice(split + 1);
  // Not strict: parseArgs then keeps every word, and the checks below say what is wrong with it.
  const parsed = parseArgs({
    args: before,
    options: flags,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  let firstWord: number | undefined;
  for (const token of parsed.tokens) {
    if (token.kind === 'positional') firstWord ??= token.index;
    if (token.kind !== 'option') continue;
    const flag = flags[token.name];
    if (flag === undefined) {
      if (runs !== undefined && firstWord !== undefined) throw commandBeforeDashes(runs, before, firstWord);
      throw unknownFlag(token.rawName, flags);
    }
    if (flag.type === 'string') checkValue(token.rawName, token.value, token.inlineValue);
    else if (token.inlineValue === true) throw flagError(token.name, 'given without a value', token.value);
  }
  return {
    values: parsed.values as GivenFlags,
    positionals: parsed.positionals,
    rest,
  };
}

/** A flag that takes a value: refused when it has none, or when the next word is another flag. */
function checkValue(rawName: string, value: string | undefined, inline: boolean | undefined): void {
  const flagLike = value !== undefined && inline !== true && /^-(-|[A-Za-z])/.test(value);
  if (value === undefined || flagLike) {
    const got = value === undefined ? 'nothing' : `the flag \`${value}\``;
    throw new CliUsageError(`Expected the \`${rawName}\` flag to be followed by its value, got ${got}`);
  }
}

/** "Unknown `--timeout` flag (did you mean `--timeout-ms`?)". */
function unknownFlag(rawName: string, flags: CliFlags): CliUsageError {
  const near = nearestFlag(rawName.replace(/^-+/, ''), Object.keys(flags));
  const hint = near === undefined ? '' : ` (did you mean \`--${near}\`?)`;
  return new CliUsageError(`Unknown \`${rawName}\` flag${hint}`);
}

/**
 * The known flag nearest to `name`: one that starts with it or that it starts with (`timeout` and
 * `timeout-ms`), else one within a few edits (a typo); `undefined` when none is near.
 */
function nearestFlag(name: string, known: readonly string[]): string | undefined {
  if (name.length < 2) return undefined;
  const prefixed = known.filter((flag) => flag.startsWith(name) || name.startsWith(flag));
  if (prefixed.length > 0) return prefixed.sort((a, b) => a.length - b.length)[0];
  const scored = known.map((flag) => ({ flag, distance: editDistance(name, flag) }));
  const best = scored.sort((a, b) => a.distance - b.distance)[0];
  return best !== undefined && best.distance <= Math.max(1, Math.floor(name.length / 3))
    ? best.flag
    : undefined;
}

/** Levenshtein distance: the fewest insertions, deletions and substitutions from `a` to `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      row.push(Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, substitution));
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/**
 * `sluice exec ls -la`: the command began before `--`, so its own options were read as sluice's.
 * Says where the command goes, with the line to type.
 */
function commandBeforeDashes(runs: string, flags: readonly string[], firstWord: number): CliUsageError {
  const line = quoteCommand('sluice', [runs, ...flags.slice(0, firstWord), '--', ...flags.slice(firstWord)]);
  return new CliUsageError(
    `Options after the command are its own: put the command after \`--\`, as in \`${line}\``,
  );
}
