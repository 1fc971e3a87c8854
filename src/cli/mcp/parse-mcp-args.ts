import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CliUsageError } from '../cli-usage-error.js';
import { flagError } from '../flag-error.js';

/**
 * What `sluice mcp` was asked to do: show help, or serve with these Exec settings.
 *
 * @example
 * ```ts
 * const command: McpCommand = { help: false, allow: ['npm'], cwd: '/srv/repo', timeoutS: 60 };
 * ```
 */
export interface McpCommand {
  readonly help: boolean;
  readonly allow: readonly string[];
  readonly cwd: string;
  readonly timeoutS: number;
}

/**
 * Parses the arguments of `sluice mcp`: `--allow <program>` (repeatable), `--cwd <dir>` (an
 * existing directory, default the current one), `--timeout-s <n>` (seconds in (0, 600], default
 * 60), `-h`/`--help`. A bad command line is a `CliUsageError` (exit code 2).
 *
 * @example
 * ```ts
 * parseMcpArgs(['--allow', 'npm', '--allow', 'git', '--timeout-s', '300']);
 * // { help: false, allow: ['npm', 'git'], cwd: process.cwd(), timeoutS: 300 }
 * ```
 */
export function parseMcpArgs(argv: readonly string[], cwd: string = process.cwd()): McpCommand {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        allow: { type: 'string', multiple: true },
        cwd: { type: 'string' },
        'timeout-s': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  const values = parsed.values as { allow?: string[]; cwd?: string; 'timeout-s'?: string; help?: boolean };
  const allow = values.allow ?? [];
  const empty = allow.find((program) => program.trim() === '');
  if (empty !== undefined) throw flagError('allow', 'a program name or path', empty);
  const dir = resolve(cwd, values.cwd ?? '.');
  if (!isDirectory(dir)) throw flagError('cwd', 'a directory', values.cwd);
  const timeoutText = values['timeout-s'] ?? '60';
  const timeoutS = /^\d+(\.\d+)?$/.test(timeoutText) ? Number(timeoutText) : Number.NaN;
  if (!(timeoutS > 0 && timeoutS <= 600)) {
    throw flagError('timeout-s', 'a number of seconds in (0, 600]', timeoutText);
  }
  return { help: values.help === true, allow, cwd: dir, timeoutS };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
