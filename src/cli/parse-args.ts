import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
import { CliUsageError, flagError, readIntegerFlag } from './cli-usage-error.js';
import { type CliFlags, type GivenFlags, parseSubcommandArgs } from './parse-subcommand-args.js';
import { REDIS_STORE_FLAGS, readRedisStoreFlags } from './redis-store-flags.js';
import { HELP_FLAG } from './subcommand.js';

/** The flags of `sluice exec`, as its help lists them. */
export const EXEC_FLAGS = {
  ...HELP_FLAG,
  json: { type: 'boolean' },
  wire: { type: 'string' },
  'call-id': { type: 'string' },
  'timeout-ms': { type: 'string' },
  'max-output-bytes': { type: 'string' },
  'buffer-size': { type: 'string' },
  'stall-timeout-ms': { type: 'string' },
  containment: { type: 'string' },
  cwd: { type: 'string' },
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  stdin: { type: 'string' },
  tty: { type: 'boolean' },
  web: { type: 'boolean' },
  port: { type: 'string' },
  host: { type: 'string' },
  'allow-host': { type: 'string', multiple: true },
  ...REDIS_STORE_FLAGS,
  'redis-strict': { type: 'boolean' },
  'run-id': { type: 'string' },
} satisfies CliFlags;

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
  /** `--containment auto|cgroup|group`: `exec`'s `containment` (default `auto`). */
  readonly containment: 'auto' | 'cgroup' | 'group';
  /** `--tty`: run the command on a pseudo-terminal (`exec`'s `tty`, sized as sluice's own terminal). */
  readonly tty: boolean;
  /** `--stdin inherit`: the command reads sluice's stdin (default `ignore`). */
  readonly stdin: 'inherit' | 'ignore';
  /** `--redis <url>`: also publish the run to this Redis (see `sluice follow`). */
  readonly redis: string | undefined;
  /** `--run-id <id>`: the run id to publish as (with `--redis`; default a random one). */
  readonly runId: string | undefined;
  /**
   * Where and how the run is published: `--redis <url>` or `--redis-cluster <host:port,…>`, with
   * `--max-events`, `--max-bytes`, `--retain-ms` (see docs/scaling.md); `undefined` without either.
   */
  readonly redisStore: ReturnType<typeof readRedisStoreFlags> | undefined;
  /** `--redis-strict`: exit with 75 when publishing to Redis failed, even if the command succeeded. */
  readonly redisStrict: boolean;
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

/**
 * Parses the arguments of `sluice exec` (the words after `exec`): its flags, checked one by one
 * and together, and the command to run.
 */
export function parseExecArgs(argv: readonly string[]): CliExecCommand {
  const { values: given, positionals, rest } = parseSubcommandArgs(argv, EXEC_FLAGS, 'exec');
  const command = [...positionals, ...rest];
  if (command.length === 0) {
    throw new CliUsageError('Missing the command to run: `sluice exec [options] -- <command> [args…]`');
  }
  const values = readExecFlags(given);
  checkWebFlags(given, values);
  const redisStore = readPublishFlags(given, values.redis);
  return {
    command: 'exec',
    file: command[0]!,
    args: command.slice(1),
    json: values.json,
    wire: values.wire,
    callId: values.callId,
    timeoutMs: values.timeoutMs,
    maxOutputBytes: values.maxOutputBytes,
    bufferSize: values.bufferSize,
    stallTimeoutMs: values.stallTimeoutMs,
    cwd: values.cwd,
    containment: values.containment,
    color: given['no-color'] === true ? false : (given.color as boolean | undefined),
    stdin: values.stdin,
    tty: given.tty === true,
    web: values.web
      ? { host: values.host ?? '127.0.0.1', port: values.port ?? 0, allowHosts: values.allowHosts }
      : undefined,
    redis: values.redis,
    runId: values.runId,
    redisStore,
    redisStrict: given['redis-strict'] === true,
  };
}

/** Each flag of `sluice exec` by itself: checked against its own rule and defaulted. */
function readExecFlags(given: GivenFlags) {
  const text = (flag: string) => given[flag] as string | undefined;
  const oneOf = <T extends string>(flag: string, allowed: readonly T[], fallback: T): T => {
    const value = text(flag);
    if (value === undefined) return fallback;
    if (!allowed.includes(value as T))
      throw flagError(flag, allowed.map((item) => `\`${item}\``).join(' or '), value);
    return value as T;
  };
  const matching = (flag: string, pattern: RegExp, expected: string): string | undefined => {
    const value = text(flag);
    if (value !== undefined && !pattern.test(value)) throw flagError(flag, expected, value);
    return value;
  };
  return {
    json: given.json === true,
    wire: oneOf('wire', ['bridge', 'serde'], 'bridge'),
    callId: matching('call-id', /./, 'a non-empty string') ?? 'sluice-1',
    // Timer delays: a longer one would fire at once (see MAX_DELAY_MS).
    timeoutMs: readIntegerFlag('timeout-ms', text('timeout-ms'), 0, 0, MAX_DELAY_MS),
    maxOutputBytes: readIntegerFlag(
      'max-output-bytes',
      text('max-output-bytes'),
      262_144,
      1,
      Number.MAX_SAFE_INTEGER,
    ),
    bufferSize: readIntegerFlag('buffer-size', text('buffer-size'), 16, 1, 1_000_000),
    stallTimeoutMs: readIntegerFlag('stall-timeout-ms', text('stall-timeout-ms'), 0, 0, MAX_DELAY_MS),
    cwd: matching('cwd', /./, 'a directory'),
    containment: oneOf('containment', ['auto', 'cgroup', 'group'], 'auto'),
    stdin: oneOf('stdin', ['inherit', 'ignore'], 'ignore'),
    web: given.web === true,
    port: given.port === undefined ? undefined : readIntegerFlag('port', text('port'), 0, 0, 65_535),
    host: matching('host', /./, 'an address or host name'),
    allowHosts: (given['allow-host'] as string[] | undefined) ?? [],
    redis: matching('redis', /^rediss?:\/\//, 'a redis:// or rediss:// URL'),
    runId: matching('run-id', /^[A-Za-z0-9._:-]{1,200}$/, '1-200 letters, digits, `.`, `_`, `:` or `-`'),
  };
}

/** `--port`, `--host` and `--allow-host` need `--web`, which excludes `--json`. */
function checkWebFlags(given: GivenFlags, values: ReturnType<typeof readExecFlags>): void {
  const emptyHost = values.allowHosts.find((host) => host === '');
  if (emptyHost !== undefined) throw flagError('allow-host', 'a host name', emptyHost);
  if (!values.web) {
    const stray = ['port', 'host', 'allow-host'].find((flag) => given[flag]);
    if (stray !== undefined) throw new CliUsageError(`\`--${stray}\` needs \`--web\``);
  } else if (values.json) throw new CliUsageError('`--web` cannot be combined with `--json`');
}

/** The Redis store the run is published to, if any; the publishing flags need one. */
function readPublishFlags(given: GivenFlags, redis: string | undefined) {
  const publishes = redis !== undefined || given['redis-cluster'] !== undefined;
  const unpublished = [
    'run-id',
    'max-events',
    'max-bytes',
    'retain-ms',
    'redis-strict',
    'redis-timeout-ms',
  ].find((flag) => given[flag] !== undefined && !publishes);
  if (unpublished !== undefined) {
    throw new CliUsageError(
      `\`--${unpublished}\` needs \`--redis <url>\`: it is about the run published there`,
    );
  }
  return publishes ? readRedisStoreFlags(given, 'sluice exec --redis <url> -- <command>') : undefined;
}
