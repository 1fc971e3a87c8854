import { parseArgs } from 'node:util';
import { z } from 'zod';
import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
import { CliUsageError } from './cli-usage-error.js';
import { subcommands } from './subcommands.js';

/** What `sluice exec` was asked to do. */
export interface CliExecCommand {
  readonly command: 'exec';
  readonly file: string;
  readonly args: readonly string[];
  readonly json: boolean;
  readonly wire: 'bridge' | 'serde';
  readonly callId: string;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly bufferSize: number;
  readonly stallTimeoutMs: number;
  readonly cwd: string | undefined;
  readonly color: boolean | undefined;
  /** `--stdin inherit`: the command reads sluice's stdin (default `ignore`). */
  readonly stdin: 'inherit' | 'ignore';
  /** `--redis <url>`: also publish the run to this Redis (see `sluice follow`). */
  readonly redis: string | undefined;
  /** `--run-id <id>`: the run id to publish as (with `--redis`; default a random one). */
  readonly runId: string | undefined;
  /** `--web`: also serve a live page for the run. */
  readonly web: CliWebOptions | undefined;
}

/** Where `sluice exec --web` serves its page. */
export interface CliWebOptions {
  readonly host: string;
  readonly port: number;
  /** More names the page may be reached by (`--allow-host`, repeatable). */
  readonly allowHosts: readonly string[];
}

/** The parsed command line: run a command, show help, or run the demo. */
export type CliCommand =
  | CliExecCommand
  | { readonly command: 'help' }
  | { readonly command: 'version' }
  | { readonly command: 'demo' };

const integer = (flag: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .regex(/^\d+$/, { message: `\`--${flag}\` expects a whole number, got` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, {
      message: `\`--${flag}\` expects a whole number from ${min} to ${max}, got`,
    });

const flagsSchema = z.object({
  json: z.boolean().default(false),
  wire: z
    .enum(['bridge', 'serde'], { message: '`--wire` expects `bridge` or `serde`, got' })
    .default('bridge'),
  'call-id': z
    .string()
    .min(1, { message: '`--call-id` expects a non-empty string, got' })
    .default('sluice-1'),
  // Timer delays: a longer one would fire at once (see MAX_DELAY_MS).
  'timeout-ms': integer('timeout-ms', 0, MAX_DELAY_MS).default(0),
  'max-output-bytes': integer('max-output-bytes', 1).default(262_144),
  'buffer-size': integer('buffer-size', 1, 1_000_000).default(16),
  'stall-timeout-ms': integer('stall-timeout-ms', 0, MAX_DELAY_MS).default(0),
  cwd: z.string().min(1, { message: '`--cwd` expects a directory, got' }).optional(),
  color: z.boolean().optional(),
  'no-color': z.boolean().optional(),
  stdin: z
    .enum(['inherit', 'ignore'], { message: '`--stdin` expects `inherit` or `ignore`, got' })
    .default('ignore'),
  web: z.boolean().default(false),
  port: integer('port', 0, 65_535).optional(),
  host: z.string().min(1, { message: '`--host` expects an address or host name, got' }).optional(),
  'allow-host': z
    .array(z.string().min(1, { message: '`--allow-host` expects a host name, got' }))
    .default([]),
  redis: z
    .string()
    .regex(/^rediss?:\/\//, { message: '`--redis` expects a redis:// or rediss:// URL, got' })
    .optional(),
  'run-id': z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,200}$/, {
      message: '`--run-id` expects 1-200 letters, digits, `.`, `_`, `:` or `-`, got',
    })
    .optional(),
});

/**
 * Parses the `sluice` command line (without `node` and the script path).
 *
 * @example
 * ```ts
 * parseCliArgs(['exec', '--timeout-ms', '5000', '--', 'make', 'test']);
 * // { command: 'exec', file: 'make', args: ['test'], timeoutMs: 5000, … }
 * ```
 */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  if (argv.length === 0) return { command: 'demo' };
  const [subcommand, ...rest] = argv;
  if (subcommand === '--help' || subcommand === '-h' || subcommand === 'help') return { command: 'help' };
  if (subcommand === '--version' || subcommand === '-V') return { command: 'version' };
  if (subcommand === 'demo') return { command: 'demo' };
  if (subcommand !== 'exec') {
    const known = ['exec', 'demo', ...subcommands.keys()].map((name) => `\`${name}\``).join(', ');
    throw new CliUsageError(`Unknown command \`${subcommand}\`: expected one of ${known}, or \`--help\``);
  }
  const split = rest.indexOf('--');
  const flags = split === -1 ? rest : rest.slice(0, split);
  const positional = split === -1 ? [] : rest.slice(split + 1);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...flags],
      strict: true,
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        json: { type: 'boolean' },
        wire: { type: 'string' },
        'call-id': { type: 'string' },
        'timeout-ms': { type: 'string' },
        'max-output-bytes': { type: 'string' },
        'buffer-size': { type: 'string' },
        'stall-timeout-ms': { type: 'string' },
        cwd: { type: 'string' },
        color: { type: 'boolean' },
        'no-color': { type: 'boolean' },
        stdin: { type: 'string' },
        web: { type: 'boolean' },
        port: { type: 'string' },
        host: { type: 'string' },
        'allow-host': { type: 'string', multiple: true },
        redis: { type: 'string' },
        'run-id': { type: 'string' },
      },
    });
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  if (parsed.values.help) return { command: 'help' };
  const command = [...parsed.positionals, ...positional];
  if (command.length === 0) {
    throw new CliUsageError('Missing the command to run: `sluice exec [options] -- <command> [args…]`');
  }
  const result = flagsSchema.safeParse(parsed.values);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const flag = String(issue.path[0]);
    const value = (parsed.values as Record<string, unknown>)[flag];
    throw new CliUsageError(`${issue.message} \`${String(value)}\``);
  }
  const values = result.data;
  if (!values.web) {
    const stray = ['port', 'host', 'allow-host'].find(
      (flag) => (parsed.values as Record<string, unknown>)[flag],
    );
    if (stray !== undefined) throw new CliUsageError(`\`--${stray}\` needs \`--web\``);
  } else if (values.json) throw new CliUsageError('`--web` cannot be combined with `--json`');
  if (values['run-id'] !== undefined && values.redis === undefined) {
    throw new CliUsageError('`--run-id` needs `--redis <url>`: the run id names the run published there');
  }
  if (values.redis !== undefined && values.json) {
    throw new CliUsageError(
      '`--redis` cannot be combined with `--json`: follow the run with `sluice follow --json`',
    );
  }
  return {
    command: 'exec',
    file: command[0]!,
    args: command.slice(1),
    json: values.json,
    wire: values.wire,
    callId: values['call-id'],
    timeoutMs: values['timeout-ms'],
    maxOutputBytes: values['max-output-bytes'],
    bufferSize: values['buffer-size'],
    stallTimeoutMs: values['stall-timeout-ms'],
    cwd: values.cwd,
    color: values['no-color'] ? false : values.color,
    stdin: values.stdin,
    web: values.web
      ? { host: values.host ?? '127.0.0.1', port: values.port ?? 0, allowHosts: values['allow-host'] }
      : undefined,
    redis: values.redis,
    runId: values['run-id'],
  };
}
