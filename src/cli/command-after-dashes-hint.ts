import { type ParseArgsConfig, parseArgs } from 'node:util';
import { quoteCommand } from '../sources/exec/quote-command.js';

/**
 * The message for `sluice exec ls -la`, whose `-la` node's parser refused as an option of
 * sluice: the command started before `--`, so its own options were read as sluice's. Says where
 * the command goes, with the line to type. `undefined` when no command word came before the
 * refused flag (a plain unknown option).
 *
 * @example
 * ```ts
 * commandAfterDashesHint(['--timeout-ms', '5000', 'ls', '-la'], options);
 * // 'Options after the command are its own: put the command after `--`, as in `sluice exec --timeout-ms 5000 -- ls -la`'
 * ```
 */
export function commandAfterDashesHint(
  flags: readonly string[],
  options: NonNullable<ParseArgsConfig['options']>,
): string | undefined {
  const { tokens } = parseArgs({
    args: [...flags],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const first = tokens.find((token) => token.kind === 'positional');
  if (first === undefined) return undefined;
  const line = quoteCommand('sluice', [
    'exec',
    ...flags.slice(0, first.index),
    '--',
    ...flags.slice(first.index),
  ]);
  return `Options after the command are its own: put the command after \`--\`, as in \`${line}\``;
}
